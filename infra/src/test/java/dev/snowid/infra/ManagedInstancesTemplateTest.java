package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.map;
import static dev.snowid.infra.TemplateDriftTest.assertMentions;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * ManagedInstances (issue 36), off by default: a function of its own on a capacity provider,
 * bounded by the pool like SnowidFunction, needing a VPC. moto skips the capacity provider's type,
 * so these checks, the SAM transform and cfn-lint (TemplateLintTest, with the option on and off)
 * stand in for a deployment.
 */
class ManagedInstancesTemplateTest {

    private static final String SECRET = "0123456789abcdef".repeat(4);

    private final Template template = Template.load();
    private final RulesEvaluator rules = new RulesEvaluator(template);

    @Test
    void theTemplatePassesTheChecksAndIsOffByDefault() {
        assertEquals(List.of(), ManagedInstancesChecks.all(template));
        assertEquals("off", map(template.parameters().get("ManagedInstances")).get("Default"));
    }

    @Test
    void onNeedsSubnetsAndSecurityGroups() {
        Map<String, String> on = values("on", "", "");
        List<String> violations = rules.violations(on);
        assertMentions(violations, "ManagedInstances=on needs ManagedSubnetIds");
        assertMentions(violations, "ManagedInstances=on needs ManagedSecurityGroupIds");
        assertEquals(List.of(), rules.violations(values("on", "subnet-0abc,subnet-0def", "sg-0123456789abcdef0")));
        assertEquals(List.of(), rules.violations(values("off", "", "")));
    }

    @Test
    void maxExecutionEnvironmentsPlusAgentSlotsStayWithinThePool() {
        Map<String, String> on = values("on", "subnet-0abc", "sg-0123456789abcdef0");
        on.put("AgentSlots", "32");
        on.put("ReservedConcurrency", "104");
        assertMentions(rules.violations(on), "ReservedConcurrency must be at most 96");
        on.put("ReservedConcurrency", "96");
        assertEquals(List.of(), rules.violations(on));
        assertEquals(Map.of("Ref", "ReservedConcurrency"),
                at(template.properties(ManagedInstancesChecks.FUNCTION), "FunctionScalingConfig", "MaxExecutionEnvironments").orElseThrow());
    }

    @Test
    void theChecksCatchAFunctionThatDoesNotFitManagedInstances() {
        Template changed = template.copy();
        Map<String, Object> managed = changed.properties(ManagedInstancesChecks.FUNCTION);
        managed.put("MemorySize", 1024);
        managed.put("SnapStart", Map.of("ApplyOn", "PublishedVersions"));
        map(managed.get("FunctionScalingConfig")).put("MaxExecutionEnvironments", 128);
        changed.resource(TemplateChecks.IDS_FUNCTION).remove("Condition");
        List<String> problems = ManagedInstancesChecks.all(changed);
        assertMentions(problems, "Managed Instances need at least 2048 MB");
        assertMentions(problems, "has SnapStart");
        assertMentions(problems, "MaxExecutionEnvironments (bounded by the pool's Rules)");
        assertMentions(problems, "never both");
    }

    @Test
    void anIdsRouteThatSkipsTheManagedFunctionFails() {
        Template changed = template.copy();
        Map<String, Object> integration = map(at(changed.properties("Api"), "DefinitionBody", "paths", "/health", "get",
                "x-amazon-apigateway-integration").orElseThrow());
        integration.put("uri", Map.of("Fn::Sub", "arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/"
                + "2015-03-31/functions/${SnowidFunction.Alias}/invocations"));
        assertMentions(TemplateChecks.routes(changed), "GET /health calls");
    }

    @Test
    void theSamTransformPutsTheFunctionOnTheCapacityProvider() {
        Template translated = SamTranslator.translate(Template.location(), "s3://snowid-test/snowid-function.jar", "eu-west-1");
        Map<String, Object> function = translated.resource(ManagedInstancesChecks.FUNCTION);
        assertEquals("AWS::Lambda::Function", function.get("Type"));
        assertEquals(ManagedInstancesChecks.CONDITION_ON, function.get("Condition"));
        Map<String, Object> properties = map(function.get("Properties"));
        assertEquals(Map.of("Fn::GetAtt", List.of("CapacityProvider", "Arn")),
                at(properties, "CapacityProviderConfig", "LambdaManagedInstancesCapacityProviderConfig", "CapacityProviderArn").orElseThrow());
        assertEquals(Map.of("Ref", "ReservedConcurrency"), at(properties, "FunctionScalingConfig", "MaxExecutionEnvironments").orElseThrow());
        assertEquals("AWS::Lambda::CapacityProvider", translated.resource("CapacityProvider").get("Type"));
    }

    private Map<String, String> values(String managed, String subnets, String securityGroups) {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, declared) -> values.put(name, String.valueOf(map(declared).getOrDefault("Default", ""))));
        values.put("Datacenters", "0-3");
        values.put("LeaseSecretSha256", SECRET);
        values.put("ManagedInstances", managed);
        values.put("ManagedSubnetIds", subnets);
        values.put("ManagedSecurityGroupIds", securityGroups);
        return values;
    }
}
