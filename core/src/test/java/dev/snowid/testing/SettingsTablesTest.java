package dev.snowid.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.internal.NumberRange;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The check the front ends' tests run on the docs: each way a table can drift is found, naming the line. */
class SettingsTablesTest {

    private static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the thing",
            Setting.named("X_PORT").in(NumberRange.of(0, 65_535, "")).byDefault("8080").means("the port"),
            Setting.named("X_SECRET").secret().unsetMeans("made up").means("the secret"),
            Setting.named("X_DIR").means("a folder"));

    @TempDir
    Path root;

    @AfterEach
    void forget() {
        System.clearProperty("snowid.root");
    }

    @Test
    void aTableThatSaysWhatTheCatalogueSaysPasses() throws IOException {
        page("<!-- settings: thing -->", "| variable | default | meaning |", "|---|---|---|",
                "| `X_PORT` | `8080` | port, 0–65,535 |", "| `X_SECRET` | made up and printed | the secret |", "| `X_DIR` | — | a folder |");
        assertEquals(List.of(), SettingsTables.problems("thing", CATALOGUE));
        assertEquals(Map.of("docs/page.md:2", "thing"), SettingsTables.markers());
    }

    @Test
    void eachDriftIsNamedWithItsLine() throws IOException {
        page("<!-- settings: thing -->", "| variable | default | meaning |", "|---|---|---|",
                "| `X_PORT` | `8081` | port, 0–65534 |", "| `X_SECRET` | `abc` | the secret |", "| `X_TYPO` | — | gone |",
                "| `X_PORT` | `8080` | port, 0–65535 |");
        assertEquals(List.of(
                "docs/page.md:5: X_PORT defaults to `8080`, the table says '8081'",
                "docs/page.md:5: X_PORT's row does not say '65535' (allowed: a whole number from 0 to 65535)",
                "docs/page.md:6: X_SECRET unset means 'made up', the table says 'abc'",
                "docs/page.md:7: names `X_TYPO`, which is not a setting of the thing",
                "docs/page.md:7: the row names no setting of the thing",
                "docs/page.md:8: X_PORT has a second row",
                "docs/page.md:3: no row for X_DIR (a folder)"), SettingsTables.problems("thing", CATALOGUE));
        assertEquals(List.of("no table is marked <!-- settings: other --> in README.md or docs/"),
                SettingsTables.problems("other", CATALOGUE));
    }

    private void page(String... lines) throws IOException {
        Files.writeString(root.resolve("README.md"), "# readme\n");
        Files.createDirectories(root.resolve("docs"));
        Files.write(root.resolve("docs").resolve("page.md"), List.of(prepend("# page", lines)), StandardCharsets.UTF_8);
        System.setProperty("snowid.root", root.toString());
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
