package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.cdk.SnowidServiceProps;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnMoto;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every check of {@link MotoDeployTest}, on the stack the CDK construct synthesizes from the same
 * values (as props): its assets staged where the template expects them, then deployed to moto as
 * the SAM template is. No custom resource is involved (moto runs Lambda functions only with Docker).
 */
@OnMoto
class MotoCdkDeployTest extends MotoDeployTest {

    /** Not a prefix of MotoDeployTest's stack: the checks find log groups and alarms by the stack's name. */
    private static final String STACK = "snowid-cdk-moto";

    MotoCdkDeployTest(DynamoDbEngine.Running moto) {
        super(moto);
    }

    @Override
    MotoStack deploy(DynamoDbEngine.Running moto) {
        SnowidServiceProps props = SnowidServiceProps.builder().datacenters("8-11").agentSlots(48).reservedConcurrency(40)
                .leaseMillis(30_000).leaseAuth(SnowidServiceProps.LeaseAuth.BEARER).leaseSecretSha256(sha256(SECRET))
                .logRetentionDays(14).throttlingRateLimit(500).throttlingBurstLimit(64).leaseConcurrency(8)
                .publicThrottlingRateLimit(300).publicThrottlingBurstLimit(32).accessLogRetentionDays(7)
                .metricsNamespace(NAMESPACE).authorizerConcurrency(2).build();
        // The same deployment as MotoDeployTest's: the props say what its parameters say.
        Map<String, String> given = new TreeMap<>(props.parameters());
        given.keySet().retainAll(PARAMETERS.keySet());
        assertEquals(new TreeMap<>(PARAMETERS), given);
        CdkSynthesis synthesized = CdkSynthesis.of(STACK, props);
        System.out.println("[snowid] the CDK stack " + STACK + " synthesized in " + synthesized.millis() + " ms");
        return MotoStack.deploySynthesized(moto, synthesized, Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath());
    }
}
