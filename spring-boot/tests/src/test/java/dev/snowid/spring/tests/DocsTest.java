package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.spring.autoconfigure.SnowidSetting;
import dev.snowid.spring.autoconfigure.metrics.SnowidMeters;
import dev.snowid.testing.SettingsTables;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.json.JsonParserFactory;

/**
 * docs/spring-boot.md says what the starter is: its property table is the generated metadata
 * (names and defaults), its meters are the starter's, and its version table names the Spring Boot
 * and Hibernate this line runs. (Its code blocks are the test app's marked source: docs-tests'
 * {@code CodeBlocksShowMarkedRegionsTest} checks every page's.)
 */
class DocsTest {

    private static final Pattern PROPERTY_ROW = Pattern.compile("^\\| `([a-z.-]+)` \\| ([^|]+) \\|", Pattern.MULTILINE);
    private static final Pattern METER_ROW = Pattern.compile("^\\| `(snowid\\.[a-z.]+)` \\|", Pattern.MULTILINE);

    private final Path page = Paths.get(required("snowid.test.springBootDoc"));

    @Test
    void thePropertyTableIsTheGeneratedMetadata() throws IOException {
        Map<String, String> documented = new TreeMap<>();
        Matcher row = PROPERTY_ROW.matcher(section("## Properties"));
        while (row.find()) {
            documented.put(row.group(1), row.group(2).trim());
        }
        Map<String, Object> metadata = new TreeMap<>();
        for (Map<String, Object> property : metadataProperties()) {
            metadata.put((String) property.get("name"), property.get("defaultValue"));
        }
        assertEquals(metadata.keySet(), documented.keySet(), "the page's property table vs the generated metadata");
        metadata.forEach((name, defaultValue) -> {
            if (defaultValue != null) {
                assertEquals("`" + defaultValue + "`", documented.get(name), "the default of " + name);
            }
        });
    }

    @Test
    void theCatalogueIsWhatSpringBindsAndThePropertyTableSaysWhatItDeclares() throws IOException {
        List<String> bound = new ArrayList<>();
        for (Map<String, Object> property : metadataProperties()) {
            bound.add((String) property.get("name"));
        }
        assertEquals(new TreeSet<>(bound), new TreeSet<>(SnowidSetting.CATALOGUE.names()), "the generated metadata vs the catalogue");
        assertEquals(List.of(), SettingsTables.problems("starter", SnowidSetting.CATALOGUE));
    }

    @Test
    void theMeterTableNamesEveryMeter() throws IllegalAccessException, IOException {
        List<String> meters = new ArrayList<>();
        for (Field field : SnowidMeters.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                meters.add((String) field.get(null));
            }
        }
        List<String> documented = new ArrayList<>();
        Matcher row = METER_ROW.matcher(section("## Meters"));
        while (row.find()) {
            documented.add(row.group(1));
        }
        Collections.sort(meters);
        Collections.sort(documented);
        assertEquals(meters, documented);
    }

    @Test
    void theVersionTableNamesTheLineUnderTest() throws IOException {
        String text = read(page);
        String boot = SpringBootVersion.getVersion();
        assertEquals(required("snowid.test.springBootVersion"), boot, "the Boot the build asked for");
        assertTrue(text.contains("| Spring Boot " + boot + " |"),
                () -> "the page names Spring Boot " + boot);
        String hibernate = org.hibernate.Version.getVersionString();
        String minor = hibernate.substring(0, hibernate.indexOf('.', hibernate.indexOf('.') + 1));
        assertTrue(text.contains("| Hibernate ORM |") && text.contains(" " + minor + " "), () -> "the page names Hibernate " + minor);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> metadataProperties() throws IOException {
        List<Map<String, Object>> properties = new ArrayList<>();
        for (String file : List.of("META-INF/spring-configuration-metadata.json", "META-INF/additional-spring-configuration-metadata.json")) {
            Enumeration<URL> found = DocsTest.class.getClassLoader().getResources(file);
            while (found.hasMoreElements()) {
                URL url = found.nextElement();
                if (!url.toString().contains("snowid-spring-boot-autoconfigure") && !url.toString().contains("autoconfigure/target")) {
                    continue; // other libraries' metadata
                }
                try (InputStream in = url.openStream()) {
                    Map<String, Object> json = JsonParserFactory.getJsonParser().parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    properties.addAll((List<Map<String, Object>>) json.get("properties"));
                }
            }
        }
        assertFalse(properties.isEmpty(), "the starter's metadata is on the classpath");
        return properties;
    }

    /** The page's text from {@code heading} to the next heading of its level. */
    private String section(String heading) throws IOException {
        String text = read(page);
        int start = text.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, () -> "no section " + heading);
        int end = text.indexOf("\n## ", start + heading.length() + 2);
        return text.substring(start, end < 0 ? text.length() : end);
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
