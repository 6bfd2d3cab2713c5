package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import dev.snowid.spring.autoconfigure.SnowidProperties;
import dev.snowid.spring.autoconfigure.SnowidSetting;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.json.JsonParserFactory;

/**
 * The starter's defaults are declared once, in its catalogue ({@link SnowidSetting}); Spring's
 * configuration metadata, which IDEs show, still names them, and names the same properties, types
 * and defaults as before issue 34 moved the defaults out of {@link SnowidProperties}' initializers.
 */
@SuppressWarnings("unchecked")
class ConfigurationMetadataTest {

    @Test
    void theGeneratedMetadataNamesWhatItNamedBefore() throws IOException {
        Map<String, Object> before = (Map<String, Object>) parse(ConfigurationMetadataTest.class
                .getResource("configuration-metadata-before-issue-34.json")).get("properties");
        Map<String, Object> now = new TreeMap<>();
        for (Map<String, Object> property : generated()) {
            now.put((String) property.get("name"), Map.of("type", String.valueOf(property.get("type")), "defaultValue",
                    String.valueOf(property.get("defaultValue"))));
        }
        Map<String, Object> expected = new TreeMap<>();
        before.forEach((name, item) -> expected.put(name, Map.of("type", String.valueOf(((Map<String, Object>) item).get("type")), "defaultValue",
                String.valueOf(((Map<String, Object>) item).get("defaultValue")))));
        assertEquals(expected, now);
    }

    @Test
    void everyDefaultInTheMetadataIsTheCataloguesAndWhatSpringBinds() throws IOException {
        Map<String, Object> defaults = new TreeMap<>();
        for (Map<String, Object> property : generated()) {
            defaults.put((String) property.get("name"), property.get("defaultValue"));
        }
        for (SnowidSetting setting : SnowidSetting.values()) {
            Object documented = defaults.get(setting.property());
            assertEquals(setting.setting().defaultValue(), documented == null ? null : String.valueOf(documented), setting.property());
        }
        SnowidProperties bound = new SnowidProperties();
        assertEquals(defaults.get("snowid.enabled"), bound.isEnabled());
        assertEquals(defaults.get("snowid.lease.auth"), bound.getLease().getAuth());
        assertEquals(defaults.get("snowid.lease.allow-plain-http"), bound.getLease().isAllowPlainHttp());
        assertEquals(defaults.get("snowid.lease.audit-at-info"), bound.getLease().isAuditAtInfo());
        assertEquals(duration(defaults.get("snowid.lease.wait-for-slot")), bound.getLease().getWaitForSlot());
        assertEquals(duration(defaults.get("snowid.lease.startup-deadline")), bound.getLease().getStartupDeadline());
    }

    /** As Spring reads a duration's text, independently of how the starter wrote it. */
    private static Duration duration(Object text) {
        assertNotNull(text, "a duration's default in the metadata");
        return ApplicationConversionService.getSharedInstance().convert(text, Duration.class);
    }

    /** The metadata the annotation processor wrote for the starter, with the additional file merged in. */
    private static List<Map<String, Object>> generated() throws IOException {
        Enumeration<URL> found = ConfigurationMetadataTest.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
        while (found.hasMoreElements()) {
            URL url = found.nextElement();
            if (url.toString().contains("snowid-spring-boot-autoconfigure") || url.toString().contains("autoconfigure/target")) {
                return (List<Map<String, Object>>) parse(url).get("properties");
            }
        }
        throw new AssertionError("the starter's metadata is not on the class path");
    }

    private static Map<String, Object> parse(URL url) throws IOException {
        try (InputStream in = url.openStream()) {
            return JsonParserFactory.getJsonParser().parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
