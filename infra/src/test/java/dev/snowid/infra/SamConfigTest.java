package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * infra/samconfig.toml stays deployable with the template: its parameter values exist, are
 * allowed, and pass the template's Rules once the one value it cannot hold (the secret's hash)
 * is given; its capabilities are what the template's resources need; the function's code is
 * left to Maven (SkipBuild) and named by CodeUri, which `sam deploy` uploads.
 */
class SamConfigTest {

    private static final Pattern SECTION = Pattern.compile("^\\[([^\\]]+)]$");
    private static final Pattern SETTING = Pattern.compile("^([a-z0-9_]+)\\s*=\\s*(.+)$");
    private static final Pattern OVERRIDE = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    private final Template template = Template.load();
    private final Map<String, Map<String, String>> config = read(Template.location().resolveSibling("samconfig.toml"));

    @Test
    void theDefaultParametersAreAllowedAndPassTheRulesWithASecret() {
        String overrides = unquote(setting("default.deploy.parameters", "parameter_overrides"));
        Map<String, String> values = new LinkedHashMap<>();
        Matcher override = OVERRIDE.matcher(overrides.replace("\\\"", "\""));
        while (override.find()) {
            values.put(override.group(1), override.group(2));
        }
        assertFalse(values.isEmpty(), "parameter_overrides: " + overrides);
        values.forEach((name, value) -> {
            Map<String, Object> parameter = Template.map(template.parameters().get(name));
            Object allowed = parameter.get("AllowedValues");
            if (allowed != null) {
                assertTrue(Template.list(allowed).stream().map(String::valueOf).toList().contains(value), name + "=" + value
                        + " is not among " + allowed);
            }
        });
        assertFalse(values.containsKey("LeaseSecretSha256"), "the secret's hash belongs to each deployment, not to the repository");
        values.put("LeaseSecretSha256", "0123456789abcdef".repeat(4));
        template.parameters().forEach((name, parameter) ->
                values.putIfAbsent(name, String.valueOf(Template.map(parameter).getOrDefault("Default", ""))));
        assertEquals(List.of(), new RulesEvaluator(template).violations(values));
    }

    @Test
    void capabilitiesAreWhatTheTemplatesResourcesNeed() {
        boolean namedIam = template.resources().values().stream().map(Template::map)
                .filter(r -> String.valueOf(r.get("Type")).startsWith("AWS::IAM::"))
                .anyMatch(r -> Template.map(r.getOrDefault("Properties", Map.of())).containsKey("RoleName"));
        assertEquals(namedIam ? "\"CAPABILITY_NAMED_IAM\"" : "\"CAPABILITY_IAM\"",
                setting("default.deploy.parameters", "capabilities"));
        assertEquals("true", setting("default.deploy.parameters", "resolve_s3"), "the jar needs a bucket in the stack's region");
        assertFalse(config.values().stream().anyMatch(section -> section.containsKey("region")),
                "no region in samconfig.toml: each region gets its own stack, chosen by the deployer's AWS settings");
    }

    @Test
    void mavenBuildsTheFunctionAndSamUploadsTheJarCodeUriNames() {
        Map<String, Object> function = template.resource("SnowidFunction");
        assertEquals(true, Template.at(function, "Metadata", "SkipBuild").orElse(null), "sam build must not try to build Maven");
        assertTrue(String.valueOf(template.properties("SnowidFunction").get("CodeUri")).endsWith(".jar"),
                "sam deploy uploads a .jar CodeUri as the deployment package itself");
    }

    private String setting(String section, String key) {
        String value = config.getOrDefault(section, Map.of()).get(key);
        assertTrue(value != null, "samconfig.toml has no " + key + " in [" + section + "]");
        return value;
    }

    private static String unquote(String value) {
        return value.startsWith("\"") && value.endsWith("\"") ? value.substring(1, value.length() - 1) : value;
    }

    /** The subset of TOML samconfig.toml uses: [sections], key = value, # comments. */
    private static Map<String, Map<String, String>> read(Path file) {
        Map<String, Map<String, String>> sections = new LinkedHashMap<>();
        Map<String, String> current = sections.computeIfAbsent("", s -> new LinkedHashMap<>());
        try {
            for (String raw : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String line = raw.strip();
                if (line.isEmpty() || line.startsWith("#")) {
                    continue;
                }
                Matcher section = SECTION.matcher(line);
                Matcher setting = SETTING.matcher(line);
                if (section.matches()) {
                    current = sections.computeIfAbsent(section.group(1), s -> new LinkedHashMap<>());
                } else if (setting.matches()) {
                    current.put(setting.group(1), setting.group(2).strip());
                } else {
                    throw new AssertionError("samconfig.toml: cannot read line '" + raw + "'");
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot read " + file, e);
        }
        return sections;
    }
}
