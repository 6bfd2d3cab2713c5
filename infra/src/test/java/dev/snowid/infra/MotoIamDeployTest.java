package dev.snowid.infra;

import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.LeaseAuthMode;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnMoto;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awssdk.services.iam.model.Policy;

/**
 * The template deployed to moto with {@code LeaseAuth=AWS_IAM}: the function gets the principal
 * list and no secret, and the stack's lease-client policy, created with the API's real id,
 * allows {@code execute-api:Invoke} on exactly the four lease routes, is attached to nothing,
 * and is the {@code LeaseClientPolicyArn} output. (The BEARER deployment: {@link MotoDeployTest}.)
 */
@OnMoto
class MotoIamDeployTest {

    private static final String STACK = "snowid-moto-iam";
    private static final String PRINCIPALS = "arn:aws:iam::123456789012:role/orders-service,arn:aws:sts::123456789012:assumed-role/snowid-*/*";
    private static final Map<String, String> PARAMETERS = Map.of("Datacenters", "4-7", "AgentSlots", "32",
            "ReservedConcurrency", "32", "LeaseAuth", "AWS_IAM", "LeasePrincipals", PRINCIPALS, "Alarms", "off", "Dashboard", "off");

    private static MotoStack deployment;
    private static RuntimeException deploymentFailed;

    private final MotoStack deployed;

    MotoIamDeployTest(DynamoDbEngine.Running moto) {
        synchronized (MotoIamDeployTest.class) {
            if (deployment == null && deploymentFailed == null) {
                try {
                    deployment = MotoStack.deploy(moto, STACK, PARAMETERS);
                } catch (RuntimeException | AssertionError failed) {
                    deploymentFailed = new IllegalStateException("the deployment to moto failed: " + failed, failed);
                }
            }
            if (deploymentFailed != null) {
                throw deploymentFailed;
            }
            deployed = deployment;
        }
    }

    @Test
    void theFunctionGetsThePrincipalListAndNoSecret() {
        Map<String, String> variables = deployed.lambda.getFunctionConfiguration(b -> b.functionName(deployed.functionName()))
                .environment().variables();
        assertEquals("AWS_IAM", variables.get(FunctionSettings.LEASE_AUTH));
        assertEquals(PRINCIPALS, variables.get(FunctionSettings.LEASE_PRINCIPALS));
        assertEquals("", variables.get(FunctionSettings.LEASE_SECRET_SHA256));
        // The function reads this environment as it would in Lambda, and accepts it.
        assertEquals(LeaseAuthMode.AWS_IAM, FunctionSettings.from(variables).leaseAuth());
    }

    @Test
    void theLeaseRoutesAreIamsAndNoAuthorizerIsDeployed() {
        String api = deployed.value("Api");
        for (var route : deployed.apiGateway.getRoutes(b -> b.apiId(api)).items()) {
            String expected = route.routeKey().contains(" /leases") ? "AWS_IAM" : null;
            assertEquals(expected, route.authorizationTypeAsString(), route.routeKey());
            assertEquals(null, route.authorizerId(), "no authorizer in IAM mode: " + route.routeKey());
        }
        assertEquals(null, deployed.physicalId(TemplateChecks.AUTHORIZER_FUNCTION), "no authorizer function in this stack");
    }

    @Test
    void theLeaseClientPolicyAllowsInvokeOnExactlyTheLeaseRoutesAndIsAttachedToNothing() {
        String arn = deployed.output("LeaseClientPolicyArn");
        Policy policy = deployed.iam.getPolicy(b -> b.policyArn(arn)).policy();
        String document = URLDecoder.decode(deployed.iam.getPolicyVersion(b -> b.policyArn(arn).versionId(policy.defaultVersionId()))
                .policyVersion().document(), StandardCharsets.UTF_8);
        List<Object> statements = list(map(new Yaml().load(document)).get("Statement"));
        assertEquals(1, statements.size(), document);
        Map<String, Object> statement = map(statements.get(0));
        assertEquals("Allow", statement.get("Effect"));
        assertEquals("execute-api:Invoke", statement.get("Action"));
        String api = "arn:aws:execute-api:" + MotoStack.REGION.id() + ":" + deployed.account() + ":" + deployed.value("Api") + "/*/";
        assertEquals(Set.of(api + "POST/leases", api + "GET/leases", api + "PUT/leases/*", api + "DELETE/leases/*"),
                Set.copyOf(list(statement.get("Resource"))), document);
        assertEquals(0, policy.attachmentCount(), "the workloads' roles attach it, nothing in the stack");
        assertTrue(deployed.iam.listEntitiesForPolicy(b -> b.policyArn(arn)).policyRoles().isEmpty());
    }
}
