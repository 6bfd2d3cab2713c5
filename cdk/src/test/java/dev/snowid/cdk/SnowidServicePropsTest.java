package dev.snowid.cdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.Aws;

/** The props refuse, before synthesis, what the template, its Rules or the function would refuse. */
class SnowidServicePropsTest {

    private static final String HASH = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private static String refusal(SnowidServiceProps.Builder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void datacentersIsRequired() {
        String message = refusal(SnowidServiceProps.builder().leaseSecretSha256(HASH));
        assertTrue(message.contains("Datacenters is required"), message);
    }

    @Test
    void aValueOutsideTheParametersAllowedValuesIsRefusedWithThem() {
        String message = refusal(SnowidServiceProps.builder().datacenters("1-4").leaseSecretSha256(HASH));
        assertTrue(message.contains("Datacenters '1-4' is refused: allowed are [0-3, 4-7"), message);
    }

    @Test
    void aHashThatIsNotOneIsRefusedWithTheConstraintDescription() {
        String message = refusal(SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256("my-secret"));
        assertTrue(message.contains("LeaseSecretSha256 'my-secret' is refused: expected exactly 64 hex digits"), message);
    }

    @Test
    void theTemplatesRulesApply() {
        String message = refusal(SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(HASH)
                .agentSlots(112).reservedConcurrency(32));
        assertTrue(message.contains("PoolKeeps112SlotsForAgents: A pool block holds 128 slots"), message);
        message = refusal(SnowidServiceProps.builder().datacenters("0-3"));
        assertTrue(message.contains("BearerNeedsASecret"), message);
    }

    @Test
    void theHashOfTheEmptyStringIsRefusedInEitherCaseByName() {
        for (String hash : List.of(SnowidServiceProps.EMPTY_SECRET_SHA256, SnowidServiceProps.EMPTY_SECRET_SHA256.toUpperCase(Locale.ROOT))) {
            String message = refusal(SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(hash));
            assertTrue(message.startsWith("snowid: LeaseSecretSha256 is the SHA-256 of the empty string"), message);
            message = refusal(SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(HASH).leaseSecretNextSha256(hash));
            assertTrue(message.startsWith("snowid: LeaseSecretNextSha256 is the SHA-256 of the empty string"), message);
        }
    }

    @Test
    void principalsAreCheckedAsTheFunctionChecksThem() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SnowidServiceProps.builder().leasePrincipals(List.of("arn:aws:iam::*:role/orders")));
        assertTrue(refused.getMessage().startsWith("snowid: LeasePrincipals: entry 'arn:aws:iam::*:role/orders'"), refused.getMessage());
        SnowidServiceProps props = SnowidServiceProps.builder().datacenters("4-7").leaseAuth(SnowidServiceProps.LeaseAuth.AWS_IAM)
                .leasePrincipals(List.of("arn:aws:iam::123456789012:role/orders", "arn:aws:iam::123456789012:role/billing")).build();
        assertEquals("arn:aws:iam::123456789012:role/orders,arn:aws:iam::123456789012:role/billing", props.parameters().get("LeasePrincipals"));
        String message = refusal(SnowidServiceProps.builder().datacenters("4-7").leaseAuth(SnowidServiceProps.LeaseAuth.AWS_IAM));
        assertTrue(message.contains("IamNeedsPrincipals"), message);
    }

    @Test
    void managedInstancesNeedAVpcAsTheRulesSay() {
        String message = refusal(SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(HASH).managedInstances(true));
        assertTrue(message.contains("ManagedInstances=on needs ManagedSubnetIds"), message);
        SnowidServiceProps props = SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(HASH).managedInstances(true)
                .managedSubnetIds(List.of("subnet-0abc", "subnet-0def")).managedSecurityGroupIds(List.of("sg-0123456789abcdef0"))
                .runtime(SnowidServiceProps.Runtime.JAVA25).build();
        assertEquals("subnet-0abc,subnet-0def", props.parameters().get("ManagedSubnetIds"));
        assertEquals("java25", props.parameters().get("Runtime"));
    }

    @Test
    void aTokenIsRefusedForTheRulesTakeLiteralsOnly() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SnowidServiceProps.builder().registryRegion(Aws.REGION));
        assertTrue(refused.getMessage().contains("RegistryRegion must be a literal value, not a token"), refused.getMessage());
    }

    @Test
    void everyParameterOfTheTemplateHasItsSetterAndItsDefault() {
        SnowidServiceProps props = SnowidServiceProps.builder().datacenters("0-3").leaseSecretSha256(HASH).build();
        List<String> parameters = SnowidTemplate.bundled().parameterNames();
        assertEquals(parameters, List.copyOf(props.parameters().keySet()));
        for (String parameter : parameters) {
            String setter = Character.toLowerCase(parameter.charAt(0)) + parameter.substring(1);
            assertTrue(Arrays.stream(SnowidServiceProps.Builder.class.getMethods()).anyMatch(m -> m.getName().equals(setter)),
                    "no setter " + setter + " for the template's parameter " + parameter);
        }
        assertEquals("32", props.parameters().get("AgentSlots"));
        assertEquals("BEARER", props.parameters().get("LeaseAuth"));
    }
}
