package dev.snowid.integrations;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/integrations.md names the versions the build tests. (Its code blocks are files of
 * examples/ and this module's marked source: docs-tests checks them.)
 */
class DocVersionsTest {

    private final Path page = Paths.get(required("snowid.test.integrationsDoc"));

    @Test
    void thePageNamesTheVersionsTheBuildTests() throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        for (String property : List.of("mybatisPlusVersion", "hibernateVersion", "hibernate7Version", "h2Version")) {
            String version = required("snowid.test." + property);
            assertTrue(text.contains(version), () -> "docs/integrations.md does not name " + property + " " + version);
        }
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("-D" + property + " is not set (the Maven build sets it)");
        }
        return value;
    }
}
