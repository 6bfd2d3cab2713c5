package dev.snowid.integrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/integrations.md shows the module's code as it is: each {@code <!-- code: name -->} block
 * equals the source lines between {@code // [docs:name]} and {@code // [/docs:name]} (indentation
 * aside), every marked region is shown, and the versions the build tests are the ones the page names.
 */
class DocSnippetsTest {

    private static final Pattern DOC_BLOCK = Pattern.compile("<!-- code: ([a-z0-9-]+) -->\\s*```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern REGION_START = Pattern.compile("^\\s*// \\[docs:([a-z0-9-]+)]\\s*$");

    private final Path module = Paths.get(required("snowid.test.moduleDir"));
    private final Path page = Paths.get(required("snowid.test.integrationsDoc"));

    @Test
    void everyCodeBlockIsTheMarkedSourceAndEveryMarkedRegionIsShown() throws IOException {
        Map<String, String> regions = regions();
        Map<String, String> blocks = new LinkedHashMap<>();
        Matcher block = DOC_BLOCK.matcher(read(page));
        while (block.find()) {
            assertTrue(blocks.put(block.group(1), block.group(2)) == null, "shown twice: " + block.group(1));
        }
        assertFalse(blocks.isEmpty(), "no <!-- code: … --> blocks in " + page);
        assertEquals(regions.keySet().stream().sorted().collect(Collectors.toList()),
                blocks.keySet().stream().sorted().collect(Collectors.toList()), "marked regions vs blocks on the page");
        blocks.forEach((name, shown) -> assertEquals(regions.get(name), shown,
                "docs/integrations.md's block '" + name + "' differs from the source: copy the region // [docs:" + name + "] over"));
    }

    @Test
    void thePageNamesTheVersionsTheBuildTests() throws IOException {
        String text = read(page);
        for (String property : List.of("mybatisPlusVersion", "hibernateVersion", "hibernate7Version", "h2Version")) {
            String version = required("snowid.test." + property);
            assertTrue(text.contains(version), () -> "docs/integrations.md does not name " + property + " " + version);
        }
    }

    /** name → the lines between the markers, without their common indentation. */
    private Map<String, String> regions() throws IOException {
        Map<String, String> regions = new LinkedHashMap<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(module.resolve("src"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
        for (Path source : sources) {
            List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                Matcher start = REGION_START.matcher(lines.get(i));
                if (!start.matches()) {
                    continue;
                }
                String name = start.group(1);
                String end = "// [/docs:" + name + "]";
                List<String> region = new ArrayList<>();
                int j = i + 1;
                while (j < lines.size() && !lines.get(j).trim().equals(end)) {
                    region.add(lines.get(j++));
                }
                assertTrue(j < lines.size(), () -> source + ": no " + end);
                assertTrue(regions.put(name, outdented(region)) == null, () -> "region marked twice: " + name);
            }
        }
        return regions;
    }

    private static String outdented(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        for (String line : lines) {
            text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        }
        return text.toString();
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("-D" + property + " is not set (the Maven build sets it)");
        }
        return value;
    }
}
