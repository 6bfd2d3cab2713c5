package dev.snowid.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.DefaultStackSynthesizer;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;

/** What a stack with a SnowidService synthesizes to, and what its accessors stand for. */
class SnowidServiceTest {

    private static Stack stack;
    private static SnowidService service;
    private static Map<String, Object> template;

    @BeforeAll
    static void synthesize() {
        App app = new App();
        stack = new Stack(app, "orders", StackProps.builder()
                .synthesizer(DefaultStackSynthesizer.Builder.create().generateBootstrapVersionRule(false).build()).build());
        service = new SnowidService(stack, "Snowid", SnowidServiceProps.builder().datacenters("8-11")
                .leaseSecretSha256("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08").build());
        template = Template.fromStack(stack).toJSON();
    }

    @Test
    void theSamTransformTheRulesAndTheParametersAreKept() {
        assertEquals("AWS::Serverless-2016-10-31", template.get("Transform"));
        assertTrue(((Map<?, ?>) template.get("Rules")).containsKey("PoolKeeps32SlotsForAgents"));
        assertEquals(SnowidTemplate.bundled().parameterNames(), List.copyOf(((Map<?, ?>) template.get("Parameters")).keySet().stream()
                .map(String::valueOf).toList()));
    }

    @Test
    void thePropsAreTheParametersDefaults() {
        assertEquals("8-11", at(template, "Parameters", "Datacenters", "Default"));
        assertEquals("32", at(template, "Parameters", "AgentSlots", "Default"));
        assertEquals(true, at(template, "Parameters", "LeaseSecretSha256", "NoEcho"));
    }

    @Test
    void everyFunctionRunsTheJarFromTheAsset() {
        for (String function : List.of("SnowidFunction", "LeaseFunction", "LeaseAuthorizerFunction")) {
            Map<?, ?> code = (Map<?, ?>) at(template, "Resources", function, "Properties", "CodeUri");
            assertTrue(String.valueOf(code.get("Key")).matches("[0-9a-f]{64}\\.jar"), function + ": " + code);
            assertTrue(String.valueOf(code.get("Bucket")).contains("cdk-hnb659fds-assets-"), function + ": " + code);
        }
    }

    @Test
    void theAccessorsNameTheIncludedResources() {
        assertEquals(Map.of("Fn::Sub", "https://${Api}.execute-api.${AWS::Region}.${AWS::URLSuffix}"), stack.resolve(service.getLeaseUrl()));
        assertEquals(Map.of("Ref", "LeaseTable"), stack.resolve(service.getTable().getTableName()));
        assertEquals(Map.of("Ref", "Api"), stack.resolve(service.getApi().getApiId()));
        assertEquals(Map.of("Fn::GetAtt", List.of("FunctionRole", "Arn")), stack.resolve(service.getFunctionRole().getRoleArn()));
        assertEquals(Map.of("Fn::GetAtt", List.of("AuthorizerRole", "Arn")), stack.resolve(service.getAuthorizerRole().getRoleArn()));
        IllegalStateException refused = assertThrows(IllegalStateException.class, service::getLeaseClientPolicy);
        assertTrue(refused.getMessage().contains("LeaseAuth=AWS_IAM only"), refused.getMessage());
    }

    @Test
    void withIamAGrantedRoleGetsTheLeaseClientPolicyUnderItsCondition() {
        Stack iam = new Stack(new App(), "iam", StackProps.builder()
                .synthesizer(DefaultStackSynthesizer.Builder.create().generateBootstrapVersionRule(false).build()).build());
        SnowidService snowid = new SnowidService(iam, "Snowid", SnowidServiceProps.builder().datacenters("0-3")
                .leaseAuth(SnowidServiceProps.LeaseAuth.AWS_IAM).leasePrincipals(List.of("arn:aws:iam::123456789012:role/orders")).build());
        Role orders = Role.Builder.create(iam, "Orders").roleName("orders").assumedBy(new ServicePrincipal("lambda.amazonaws.com")).build();
        snowid.grantLeases(orders);
        Map<String, Object> role = Template.fromStack(iam).findResources("AWS::IAM::Role", Map.of("Properties", Map.of("RoleName", "orders")))
                .values().iterator().next();
        assertEquals(List.of(Map.of("Fn::If", List.of("LeaseRoutesUseIam", Map.of("Ref", "LeaseClientPolicy"), Map.of("Ref", "AWS::NoValue")))),
                at(role, "Properties", "ManagedPolicyArns"));
    }

    @Test
    void aGrantToSnowidsRolesAddsNothingToWhatTheTemplateGivesThem() {
        Stack other = new Stack(new App(), "other", StackProps.builder()
                .synthesizer(DefaultStackSynthesizer.Builder.create().generateBootstrapVersionRule(false).build()).build());
        SnowidService snowid = new SnowidService(other, "Snowid", SnowidServiceProps.builder().datacenters("0-3")
                .leaseSecretSha256("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08").build());
        for (var role : List.of(snowid.getFunctionRole(), snowid.getAuthorizerRole())) {
            role.addToPrincipalPolicy(PolicyStatement.Builder.create().actions(List.of("dynamodb:DeleteTable")).resources(List.of("*")).build());
        }
        assertEquals(java.util.Set.of("RegistryPolicy"), Template.fromStack(other).findResources("AWS::IAM::Policy").keySet());
    }

    @Test
    void theAliasRefsAreWrittenAsTheSubSamReadsTheSameWay() {
        assertEquals("FunctionName: !Sub \"${LeaseFunction.Alias}\"", SnowidService.includable("FunctionName: !Ref LeaseFunction.Alias"));
        assertEquals(Map.of("Fn::If", List.of("ManagedInstancesOn", Map.of("Fn::Sub", "${ManagedIdsFunction.Alias}"),
                Map.of("Fn::Sub", "${SnowidFunction.Alias}"))), at(template, "Resources", "ApiInvokesFunction", "Properties", "FunctionName"));
    }

    static Object at(Map<String, Object> from, String... keys) {
        Object node = from;
        for (String key : keys) {
            node = ((Map<?, ?>) node).get(key);
        }
        return node;
    }
}
