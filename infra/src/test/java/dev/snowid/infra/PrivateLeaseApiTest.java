package dev.snowid.infra;

import static dev.snowid.infra.Template.map;
import static dev.snowid.infra.TemplateDriftTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@code LeaseEndpoint=vpc}, off by default: the lease routes again on a private REST API that
 * only one VPC endpoint reaches, so no caller outside that VPC can use up their throttle. moto has
 * no private endpoints (nor WAF), so the template is read here, and cfn-lint checks its schema
 * ({@link TemplateLintTest}); the default is what the moto deploy tests deploy.
 */
class PrivateLeaseApiTest {

    private static final String ENDPOINT = "vpce-0123456789abcdef0";
    private static final String SECRET = "0123456789abcdef".repeat(4);

    private final Template template = Template.load();
    private final RulesEvaluator rules = new RulesEvaluator(template);

    @Test
    void offByDefaultEveryPartOfThePrivateApiIsLeftOut() {
        Map<String, String> defaults = parameters("BEARER", "public", "");
        assertEquals("public", map(template.parameters().get("LeaseEndpoint")).get("Default"));
        assertFalse(intrinsics(defaults).condition("LeaseRoutesPrivate"));
        int parts = 0;
        for (Map.Entry<String, Object> resource : template.resources().entrySet()) {
            if (resource.getKey().equals("LeaseClientPolicy")) {
                continue; // its private routes are each under Fn::If LeaseRoutesPrivate (ConcurrencyRulesTest)
            }
            if (map(resource.getValue()).toString().contains("PrivateLeaseApi") || resource.getKey().equals("PrivateLeaseApi")) {
                assertEquals("LeaseRoutesPrivate", map(resource.getValue()).get("Condition"), resource.getKey());
                parts++;
            }
        }
        assertEquals(2, parts, "the API and its permission to call LeaseFunction");
        assertEquals("LeaseRoutesPrivate", map(map(template.root().get("Outputs")).get("PrivateLeaseUrl")).get("Condition"));
        assertEquals(List.of(), rules.violations(defaults));
    }

    @Test
    void onItServesExactlyTheLeaseRoutesThroughOneVpcEndpointOnly() {
        for (String auth : List.of("BEARER", "AWS_IAM")) {
            Map<String, String> on = parameters(auth, "vpc", ENDPOINT);
            assertEquals(List.of(), rules.violations(on), auth);
            Intrinsics resolved = intrinsics(on);
            assertTrue(resolved.condition("LeaseRoutesPrivate"));
            Map<String, Object> api = map(resolved.resolve(template.properties("PrivateLeaseApi")));

            assertEquals(Map.of("Type", "PRIVATE", "VPCEndpointIds", List.of(ENDPOINT)), api.get("EndpointConfiguration"));
            Map<String, Object> body = map(api.get("DefinitionBody"));
            List<Object> policy = Template.list(map(body.get("x-amazon-apigateway-policy")).get("Statement"));
            assertTrue(policy.contains(Map.of("Effect", "Deny", "Principal", "*", "Action", "execute-api:Invoke", "Resource", "execute-api:/*",
                    "Condition", Map.of("StringNotEquals", Map.of("aws:SourceVpce", ENDPOINT)))), policy.toString());

            Map<String, String> routes = new TreeMap<>();
            map(body.get("paths")).forEach((path, methods) -> map(methods).forEach((method, operation) -> {
                Map<String, Object> op = map(operation);
                String uri = String.valueOf(map(op.get("x-amazon-apigateway-integration")).get("uri"));
                assertTrue(uri.contains("function:snowid-leases:live/invocations"), method + " " + path + " calls " + uri);
                routes.put(method.toUpperCase() + " " + path, String.valueOf(op.get("security")));
            }));
            String security = auth.equals("AWS_IAM") ? "[{AWS_IAM=[]}]" : "null"; // BEARER: LeaseFunction checks the secret
            assertEquals(Map.of("GET /leases", security, "POST /leases", security, "PUT /leases/{slot}", security,
                    "DELETE /leases/{slot}", security), routes, auth);
        }
    }

    @Test
    void theRulesAskForAnEndpointExactlyWhenThePrivateApiIsOn() {
        assertMentions(rules.violations(parameters("BEARER", "vpc", "")), "set LeaseVpcEndpointId");
        assertMentions(rules.violations(parameters("BEARER", "public", ENDPOINT)), "LeaseVpcEndpointId is used only with LeaseEndpoint=vpc");
    }

    private Map<String, String> parameters(String auth, String endpoint, String vpcEndpoint) {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, declared) -> values.put(name, String.valueOf(map(declared).getOrDefault("Default", ""))));
        values.put("Datacenters", "0-3");
        values.put("LeaseAuth", auth);
        values.put(auth.equals("BEARER") ? "LeaseSecretSha256" : "LeasePrincipals",
                auth.equals("BEARER") ? SECRET : "arn:aws:iam::123456789012:role/app");
        values.put("LeaseEndpoint", endpoint);
        values.put("LeaseVpcEndpointId", vpcEndpoint);
        return values;
    }

    private Intrinsics intrinsics(Map<String, String> parameters) {
        Map<String, String> values = new HashMap<>(parameters);
        values.putAll(Map.of("AWS::Partition", "aws", "AWS::Region", "eu-west-1", "AWS::AccountId", "123456789012",
                "LeaseFunction.Alias", "arn:aws:lambda:eu-west-1:123456789012:function:snowid-leases:live"));
        return new Intrinsics(values, map(template.root().get("Conditions")));
    }
}
