package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionRole;
import dev.snowid.lambda.settings.FunctionSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each function of the template, started with exactly the {@code Environment} the template gives
 * it (its intrinsics resolved with the parameters' defaults, and once more in IAM mode), reads
 * every variable and warns about none: a cold start never logs that a setting of the template
 * "is ignored".
 */
class TemplateEnvironmentTest {

    private static final String PRINCIPALS = "arn:aws:iam::123456789012:role/orders-service";

    private final Template template = Template.load();

    @Test
    void eachFunctionWithTheTemplatesDefaultsWarnsAboutNothing() {
        for (String function : TemplateChecks.ROLES.keySet()) {
            FunctionSettings settings = FunctionSettings.from(environment(function, Map.of()));
            assertEquals(List.of(), settings.warnings(), function);
            assertEquals(TemplateChecks.ROLES.get(function), settings.role(), function);
        }
    }

    @Test
    void theAuthorizerWithTheTemplatesDefaultsWarnsAboutNothingAndReadsTheSecretsHashes() {
        String hash = "0123456789abcdef".repeat(4);
        Map<String, String> environment = environment(TemplateChecks.AUTHORIZER_FUNCTION,
                Map.of("LeaseSecretSha256", hash, "LeaseSecretNextSha256", hash.replace('0', 'f')));
        FunctionSettings settings = FunctionSettings.from(environment);
        assertEquals(List.of(), settings.warnings());
        assertEquals(2, settings.leaseSecretHashes().size(), "the current and the next secret");
    }

    @Test
    void eachFunctionInIamModeWarnsAboutNothing() {
        for (String function : TemplateChecks.ROLES.keySet()) {
            Map<String, String> environment = environment(function, Map.of("LeaseAuth", "AWS_IAM", "LeasePrincipals", PRINCIPALS));
            FunctionSettings settings = FunctionSettings.from(environment);
            assertEquals(List.of(), settings.warnings(), function);
            assertTrue(settings.leasePrincipals().admits(PRINCIPALS), function + " reads SNOWID_LEASE_PRINCIPALS");
        }
    }

    @Test
    void theCheckSeesAVariableTheFunctionDoesNotRead() {
        Template changed = template.copy();
        map(at(changed.properties(TemplateChecks.LEASE_FUNCTION), "Environment", "Variables").orElseThrow())
                .put("SNOWID_LEASE_PRINCIPAL", "x");
        Map<String, String> environment = environment(changed, TemplateChecks.LEASE_FUNCTION, Map.of());
        assertEquals(List.of("[unknown_setting] environment variable SNOWID_LEASE_PRINCIPAL is not a setting of the function and is ignored;"
                + " did you mean `SNOWID_LEASE_PRINCIPALS`?"), FunctionSettings.from(environment).warnings());
        assertEquals(FunctionRole.LEASES, FunctionSettings.from(environment).role());
    }

    private Map<String, String> environment(String function, Map<String, String> parameters) {
        return environment(template, function, parameters);
    }

    /** The function's variables as Lambda would set them: parameters at their defaults unless given. */
    private static Map<String, String> environment(Template template, String function, Map<String, String> parameters) {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, definition) -> {
            Object fallback = map(definition).get("Default");
            values.put(name, fallback == null ? "" : String.valueOf(fallback));
        });
        values.putAll(parameters);
        values.put("AWS::StackName", "snowid-prod");
        values.put("AWS::Region", "eu-west-1");
        values.put("LeaseTable", "snowid-prod-LeaseTable-1A2B3C4D5E6F");
        Intrinsics intrinsics = new Intrinsics(values, map(template.root().getOrDefault("Conditions", Map.of())));
        Map<String, String> environment = new LinkedHashMap<>();
        map(at(template.properties(function), "Environment", "Variables").orElseThrow())
                .forEach((name, value) -> environment.put(name, intrinsics.string(value)));
        environment.put(FunctionSettings.LAMBDA_FUNCTION_NAME, function);
        environment.put(FunctionSettings.LAMBDA_LOG_STREAM_NAME, "2026/12/03/[1]0123456789abcdef");
        return environment;
    }
}
