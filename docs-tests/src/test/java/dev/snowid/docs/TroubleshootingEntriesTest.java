package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.internal.ProblemCode;
import dev.snowid.internal.WarningCode;
import dev.snowid.local.LocalSettings;
import dev.snowid.protocol.ErrorCode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/troubleshooting.md has one entry per code, an {@code ### <code>} heading (its anchor), the
 * API's error codes under "Errors of the lease API" and the warning codes under "Warnings", and no
 * entry for a code that does not exist. A warning code is one some front end says.
 */
class TroubleshootingEntriesTest {

    private static final Path PAGE = DocBlock.root().resolve("docs/troubleshooting.md");

    @Test
    void everyErrorCodeAndWarningCodeHasExactlyOneEntryInItsSection() {
        Map<String, List<String>> sections = entriesBySection();
        assertEquals(List.of("Errors of the lease API", "Warnings"), new ArrayList<>(sections.keySet()), "the page's sections, in order");
        assertEntries(codes(ErrorCode.values()), sections.get("Errors of the lease API"), "ErrorCode");
        assertEntries(codes(WarningCode.values()), sections.get("Warnings"), "WarningCode");
    }

    private static void assertEntries(List<String> codes, List<String> entries, String kind) {
        List<String> missing = new ArrayList<>(codes);
        missing.removeAll(entries);
        List<String> unknown = new ArrayList<>(entries);
        unknown.removeAll(codes);
        assertEquals(codes, sorted(entries), () -> "one entry per " + kind + ", each once, and no other; without an entry: " + missing
                + "; entries that are no " + kind + ": " + unknown);
    }

    @Test
    void theLineThePageShowsIsTheOneTheLocalRunnerSays() throws IOException {
        String warning = LocalSettings.warnings(Map.of("SNOWID_PROT", "1")).get(0);
        assertTrue(warning.startsWith("[unknown_setting] "), warning);
        assertTrue(Files.readString(PAGE, StandardCharsets.UTF_8).contains("snowid local: warning: " + warning + "\n"),
                "docs/troubleshooting.md shows the runner's line for SNOWID_PROT as it is: " + warning);
    }

    @Test
    void everyWarningCodeIsSaidBySomeFrontEnd() {
        String sources = mainSources();
        List<String> unsaid = Arrays.stream(WarningCode.values()).filter(code -> !sources.contains("WarningCode." + code.name()))
                .map(WarningCode::code).collect(Collectors.toList());
        assertEquals(List.of(), unsaid, "codes no main source uses: remove them, and their entries");
    }

    /** "## Section" → the codes of its "### code" headings, in page order (a code twice stays twice). */
    private static Map<String, List<String>> entriesBySection() {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        boolean fenced = false;
        for (String line : DocBlock.lines(PAGE)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced && line.startsWith("## ")) {
                current = new ArrayList<>();
                sections.put(line.substring(3).strip(), current);
            } else if (!fenced && line.startsWith("### ")) {
                assertTrue(current != null, "an entry before the first section: " + line);
                current.add(line.substring(4).strip());
            }
        }
        return sections;
    }

    private static List<String> codes(ProblemCode[] codes) {
        return Arrays.stream(codes).map(ProblemCode::code).sorted().collect(Collectors.toList());
    }

    private static List<String> sorted(List<String> entries) {
        return entries.stream().sorted().collect(Collectors.toList());
    }

    /** The Java main sources of every module, but WarningCode itself. */
    private static String mainSources() {
        Path root = DocBlock.root();
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> isMainJava(root.relativize(f).toString().replace('\\', '/'))).collect(Collectors.toList())) {
                all.append(Files.readString(file, StandardCharsets.UTF_8)).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }

    private static boolean isMainJava(String path) {
        return path.endsWith(".java") && path.contains("/src/main/java/") && !path.startsWith(".") && !path.contains("/target/")
                && !path.contains("node_modules/") && !path.endsWith("/WarningCode.java");
    }
}
