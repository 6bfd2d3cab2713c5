package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every property ({@code snowid.*}, system properties included) and environment variable
 * ({@code SNOWID_*}) that README.md or docs/ names occurs, as that string, in the code: the
 * modules' sources (a test harness's own settings, such as {@code SNOWID_TEST_*}, live in src/test),
 * their POMs, the SAM template and the scripts; never this module, whose tests name settings as
 * examples. A renamed setting fails here, naming the doc and line that still uses the old name. The agent reads each property also from the
 * environment, upper-case with dots as {@code _}: such a variable counts as named by its property.
 */
class NamedSettingsExistTest {

    /** snowid.x.y, but not inside a longer dotted name such as a package (dev.snowid.client). */
    private static final Pattern PROPERTY = Pattern.compile("(?<![\\w.\\-/])snowid(?:\\.[a-z][A-Za-z0-9]*)+");
    private static final Pattern VARIABLE = Pattern.compile("(?<![\\w$])SNOWID_[A-Z0-9_]*[A-Z0-9]");
    /** Names that are not settings: the project's web address, and the docs' own files. */
    private static final Set<String> NOT_SETTINGS = Set.of("snowid.dev");

    @Test
    void everyNamedSettingExistsInTheCode() {
        String code = mainSources();
        Set<String> derived = new java.util.HashSet<>();
        Matcher literal = Pattern.compile("\"(snowid(?:\\.[A-Za-z0-9]+)+)\"").matcher(code);
        while (literal.find()) {
            derived.add(literal.group(1).toUpperCase(java.util.Locale.ROOT).replace('.', '_'));
        }
        List<String> problems = new ArrayList<>();
        for (Path doc : DocBlock.docs()) {
            List<String> lines = DocBlock.lines(doc);
            for (int i = 0; i < lines.size(); i++) {
                for (Pattern pattern : List.of(PROPERTY, VARIABLE)) {
                    Matcher name = pattern.matcher(lines.get(i));
                    while (name.find()) {
                        String found = name.group();
                        if (!NOT_SETTINGS.contains(found) && !code.contains(found) && !derived.contains(found)) {
                            problems.add(DocBlock.where(doc, i + 1) + ": names `" + found + "`, which no source, POM or script contains");
                        }
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), () -> problems.size() + " setting(s) named in the docs but nowhere in the code (renamed? misspelt?):\n"
                + String.join("\n", problems));
    }

    private static String mainSources() {
        Path root = DocBlock.root();
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).filter(NamedSettingsExistTest::isMainSource)
                    .collect(Collectors.toList())) {
                all.append(Files.readString(file, StandardCharsets.UTF_8)).append('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }

    private static boolean isMainSource(Path file) {
        String path = DocBlock.root().relativize(file).toString().replace('\\', '/');
        if (path.contains("/target/") || path.contains("node_modules/") || path.startsWith(".") || path.startsWith("docs-tests/")) {
            return false;
        }
        return path.contains("/src/") || path.endsWith("pom.xml") || path.endsWith("template.yaml") || path.startsWith("scripts/")
                || path.matches("[^/]+/scripts/.*");
    }
}
