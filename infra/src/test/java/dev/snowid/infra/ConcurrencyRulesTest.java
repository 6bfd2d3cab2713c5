package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static dev.snowid.infra.TemplateDriftTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.EmptySecretHash;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The template's Rules, evaluated here as CloudFormation evaluates them before a deployment:
 * reserved concurrency + slots kept for agents never exceeds the pool, and every combination
 * that fits is allowed; each lease auth mode gets what it needs (a secret, or a principal list)
 * and nothing of the other's; and the IAM mode's client policy grants the lease routes alone.
 */
class ConcurrencyRulesTest {

    private static final String SECRET = "0123456789abcdef".repeat(4);

    private final Template template = Template.load();
    private final RulesEvaluator rules = new RulesEvaluator(template);

    @Test
    void tooMuchConcurrencyForThePoolIsRefused() {
        // 128 slots, 32 kept for agents: 96 is the most Lambda environments may hold.
        List<String> violations = rules.violations(values("0-3", "32", "104"));
        assertEquals(1, violations.size(), violations.toString());
        assertMentions(violations, "ReservedConcurrency must be at most 96");
        assertEquals(List.of(), rules.violations(values("0-3", "32", "96")));
    }

    @Test
    void exactlyTheCombinationsThatFitThePoolAreAccepted() {
        Map<String, Object> parameters = template.parameters();
        int checked = 0;
        int refused = 0;
        for (String datacenters : allowed(parameters, "Datacenters")) {
            for (String agents : allowed(parameters, "AgentSlots")) {
                for (String concurrency : allowed(parameters, "ReservedConcurrency")) {
                    Map<String, String> values = values(datacenters, agents, concurrency);
                    int pool = TemplateChecks.size(TemplateChecks.resolve(variable(FunctionSettings.DATACENTERS), values))
                            * TemplateChecks.size(TemplateChecks.resolve(variable(FunctionSettings.MACHINES), values));
                    boolean fits = Integer.parseInt(concurrency) + Integer.parseInt(agents) <= pool;
                    List<String> violations = rules.violations(values);
                    assertEquals(fits, violations.isEmpty(), values + " in a pool of " + pool + ": " + violations);
                    checked++;
                    refused += fits ? 0 : 1;
                }
            }
        }
        assertTrue(refused > 0 && refused < checked, refused + " of " + checked + " refused");
    }

    @Test
    void theDefaultsFitWhenASecretIsGiven() {
        Map<String, String> defaults = defaults();
        defaults.put("LeaseSecretSha256", SECRET);
        assertEquals(List.of(), rules.violations(defaults));
    }

    @Test
    void bearerAuthNeedsASecretAndIamTakesNone() {
        assertMentions(rules.violations(auth("BEARER", "")), "LeaseAuth=BEARER needs LeaseSecretSha256");
        assertMentions(rules.violations(auth("AWS_IAM", SECRET)), "leave LeaseSecretSha256 and LeaseSecretNextSha256 empty");
        Map<String, String> nextWithIam = auth("AWS_IAM", "");
        nextWithIam.put("LeaseSecretNextSha256", SECRET);
        assertMentions(rules.violations(nextWithIam), "LeaseSecretNextSha256 empty");
        assertEquals(List.of(), rules.violations(auth("BEARER", SECRET)));
        assertEquals(List.of(), rules.violations(iam("arn:aws:iam::123456789012:role/orders-service")));
    }

    /** Issue 32: the hash an unset variable hashes to; the function refuses it in any case, the template in the two usual ones. */
    @Test
    void theEmptyStringsHashIsRefusedAsTheSecretAndAsTheNextSecret() {
        String empty = EmptySecretHash.HEX;
        for (String hash : new String[] {empty, empty.toUpperCase(Locale.ROOT)}) {
            assertMentions(rules.violations(auth("BEARER", hash)), "LeaseSecretSha256 is the SHA-256 of the empty string");
            Map<String, String> next = auth("BEARER", SECRET);
            next.put("LeaseSecretNextSha256", hash);
            assertMentions(rules.violations(next), "LeaseSecretNextSha256 is the SHA-256 of the empty string");
        }
        Map<String, String> rotating = auth("BEARER", SECRET);
        rotating.put("LeaseSecretNextSha256", "fedcba9876543210".repeat(4));
        assertEquals(List.of(), rules.violations(rotating));
    }

    @Test
    void iamAuthNeedsPrincipalsAndBearerAuthTakesNone() {
        assertMentions(rules.violations(auth("AWS_IAM", "")), "LeaseAuth=AWS_IAM needs LeasePrincipals");
        Map<String, String> bearerWithPrincipals = auth("BEARER", SECRET);
        bearerWithPrincipals.put("LeasePrincipals", "arn:aws:iam::123456789012:role/orders-service");
        assertMentions(rules.violations(bearerWithPrincipals), "leave it empty with LeaseAuth=BEARER");
        assertEquals(List.of(), rules.violations(iam("arn:aws:sts::123456789012:assumed-role/snowid-*/*")));
        assertEquals("LeasePrincipals", map(variable(FunctionSettings.LEASE_PRINCIPALS)).get("Ref"));
    }

    @Test
    void theLeaseClientPolicyAllowsInvokeOnExactlyTheLeaseRoutesAndOnlyWithIam() {
        Map<String, Object> policy = map(template.resources().get("LeaseClientPolicy"));
        assertEquals("LeaseRoutesUseIam", policy.get("Condition"));
        List<Object> statements = list(at(map(policy.get("Properties")), "PolicyDocument", "Statement").orElseThrow());
        assertEquals(1, statements.size());
        Map<String, Object> statement = map(statements.get(0));
        assertEquals("Allow", statement.get("Effect"));
        assertEquals("execute-api:Invoke", statement.get("Action"));
        List<Map<String, Object>> resources = list(statement.get("Resource")).stream().map(Template::map).toList();
        List<String> routes = resources.stream().filter(resource -> resource.containsKey("Fn::Sub"))
                .map(resource -> String.valueOf(resource.get("Fn::Sub"))).toList();
        String prefix = "arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:${Api}/*/";
        // LeaseEndpoint=vpc: the same routes of the private API, and only then.
        List<Object> privateRoutes = resources.stream().filter(resource -> !resource.containsKey("Fn::Sub")).map(resource -> (Object) resource)
                .toList();
        assertEquals(routes.stream().map(route -> (Object) Map.of("Fn::If", List.of("LeaseRoutesPrivate",
                Map.of("Fn::Sub", route.replace("${Api}", "${PrivateLeaseApi}")), Map.of("Ref", "AWS::NoValue")))).toList(), privateRoutes);
        assertEquals(List.of(prefix + "POST/leases", prefix + "GET/leases", prefix + "PUT/leases/*", prefix + "DELETE/leases/*"), routes);
        assertEquals(Set.copyOf(TemplateChecks.ROUTES.stream().filter(route -> route.contains("/leases")).toList()),
                Set.copyOf(routes.stream().map(route -> route.substring(prefix.length()).replaceFirst("/", " /").replace("*", "{slot}"))
                        .toList()), "every lease route of the API, and nothing else");
        assertEquals("LeaseRoutesUseIam", map(map(template.root().get("Outputs")).get("LeaseClientPolicyArn")).get("Condition"));
    }

    // --- the check over all combinations notices a rule that lets too much through ------------

    @Test
    void aRuleThatAllowsOneValueTooManyIsCaught() {
        Template changed = template.copy();
        contains(changed, "PoolKeeps32SlotsForAgents").add("104");
        assertMentions(TemplateChecks.concurrencyWithinPool(changed),
                "reserved concurrency 104 + 32 agent slots > 128 slots in the pool");
    }

    @Test
    void aMissingRuleIsCaught() {
        Template changed = template.copy();
        changed.rules().remove("PoolKeeps112SlotsForAgents");
        assertMentions(TemplateChecks.concurrencyWithinPool(changed), "+ 112 agent slots > 128 slots in the pool");
    }

    @Test
    void aSmallerPoolTheRulesDoNotKnowAboutIsCaught() {
        Template changed = template.copy();
        map(at(changed.properties("SnowidFunction"), "Environment", "Variables").orElseThrow())
                .put(FunctionSettings.MACHINES, "0-15");
        assertMentions(TemplateChecks.concurrencyWithinPool(changed), "slots in the pool");
    }

    @Test
    void aConcurrencyParameterWithoutAllowedValuesCannotBeBounded() {
        Template changed = template.copy();
        Map<String, Object> concurrency = map(changed.parameters().get("ReservedConcurrency"));
        concurrency.remove("AllowedValues");
        concurrency.put("MaxValue", 1000);
        assertMentions(TemplateChecks.concurrencyWithinPool(changed), "ReservedConcurrency bears on the bound");
    }

    @Test
    void aRuleFunctionTheEvaluatorDoesNotKnowFailsLoudly() {
        Template changed = template.copy();
        Map<String, Object> rule = map(changed.rules().get("PoolKeeps0SlotsForAgents"));
        rule.put("RuleCondition", Map.of("Fn::ValueOf", List.of("AgentSlots", "Description")));
        RulesEvaluator evaluator = new RulesEvaluator(changed);
        assertThrows(IllegalArgumentException.class, () -> evaluator.violations(defaults()));
    }

    // ---------------------------------------------------------------------------------------

    private Map<String, String> defaults() {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, declared) ->
                values.put(name, String.valueOf(map(declared).getOrDefault("Default", ""))));
        values.put("Datacenters", "0-3"); // no default: every stack states its block
        return values;
    }

    private Map<String, String> values(String datacenters, String agents, String concurrency) {
        Map<String, String> values = defaults();
        values.put("LeaseSecretSha256", SECRET);
        values.put("Datacenters", datacenters);
        values.put("AgentSlots", agents);
        values.put("ReservedConcurrency", concurrency);
        return values;
    }

    private Map<String, String> auth(String auth, String secret) {
        Map<String, String> values = defaults();
        values.put("LeaseAuth", auth);
        values.put("LeaseSecretSha256", secret);
        return values;
    }

    private Map<String, String> iam(String principals) {
        Map<String, String> values = auth("AWS_IAM", "");
        values.put("LeasePrincipals", principals);
        return values;
    }

    private Object variable(String name) {
        return at(template.properties("SnowidFunction"), "Environment", "Variables", name).orElseThrow();
    }

    private static List<String> allowed(Map<String, Object> parameters, String name) {
        List<String> values = new ArrayList<>();
        list(map(parameters.get(name)).get("AllowedValues")).forEach(value -> values.add(String.valueOf(value)));
        return values;
    }

    /** The list of allowed values in a rule's only assertion. */
    private static List<Object> contains(Template template, String rule) {
        Map<String, Object> assertion = map(list(map(template.rules().get(rule)).get("Assertions")).get(0));
        return list(list(map(assertion.get("Assert")).get("Fn::Contains")).get(0));
    }
}
