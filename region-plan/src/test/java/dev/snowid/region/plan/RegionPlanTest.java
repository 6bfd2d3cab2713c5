package dev.snowid.region.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.region.Block;
import dev.snowid.region.Claimant;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The plan's checks: every stack states its block, blocks are disjoint, every stack names the plan's registry. */
class RegionPlanTest {

    private static final String REGISTRY = "version = 0.1\n"
            + "[registry.deploy.parameters]\n"
            + "stack_name = \"snowid-registry\"\n"
            + "region = \"eu-west-1\"\n"
            + "parameter_overrides = \"TableName=snowid-registry\"\n";

    private static String stack(String env, String region, String stack, String datacenters) {
        return "\n[" + env + ".deploy.parameters]   # a comment\n"
                + "stack_name = \"" + stack + "\"\n"
                + "region = '" + region + "'\n"
                + "resolve_s3 = true\n"
                + "parameter_overrides = [\n  \"Datacenters=" + datacenters + "\",  # its block\n"
                + "  \"RegistryRegion=eu-west-1 RegistryTable=snowid-registry\",\n  \"ServiceName=\\\"two words\\\"\"\n]\n";
    }

    @Test
    void aPlanOfTwoStacksReadsInOrderWithItsRegistry() {
        RegionPlan plan = RegionPlan.parse("plan.toml", REGISTRY + stack("eu", "eu-west-1", "snowid", "0-3")
                + stack("us", "us-east-1", "snowid", "4-7"));

        assertEquals(Arrays.asList("registry", "eu", "us"), plan.deployOrder());
        assertEquals(Claimant.of("us-east-1", "snowid"), plan.stack("us").claimant());
        assertEquals(Block.of(1), plan.stack("us").block());
        assertEquals("snowid-leases", plan.stack("us").leaseTable());
        assertEquals("two words", plan.stack("eu").parameters().get("ServiceName"));
        assertEquals("eu", plan.stackOf(Block.of(0)).env());
        assertEquals(null, plan.stackOf(Block.of(2)));
        assertEquals("eu-west-1", plan.registryRegion());
        assertEquals("snowid-registry", plan.registryTable());
    }

    @Test
    void overlappingBlocksAMissingBlockAndAnotherRegistryAreAllReportedAtOnce() {
        String text = REGISTRY + stack("eu", "eu-west-1", "snowid", "0-3") + stack("us", "us-east-1", "snowid", "0-3")
                + "\n[ap.deploy.parameters]\nstack_name = \"snowid\"\nregion = \"ap-south-1\"\n"
                + "parameter_overrides = \"RegistryRegion=us-east-1 RegistryTable=snowid-registry\"\n";

        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> RegionPlan.parse("plan.toml", text));

        String message = refused.getMessage();
        assertTrue(message.contains("3 problems"), message);
        assertTrue(message.contains("us: block 0 (datacenters 0-3) is eu's already"), message);
        assertTrue(message.contains("ap: parameter_overrides states no Datacenters"), message);
        assertTrue(message.contains("ap: RegistryRegion is 'us-east-1', not the registry's region 'eu-west-1'"), message);
    }

    @Test
    void aBlockThatIsNotOneOfTheEightAndAPlanWithoutARegistryAreRefused() {
        IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
                () -> RegionPlan.parse("p", REGISTRY + stack("eu", "eu-west-1", "snowid", "2-5")));
        assertTrue(odd.getMessage().contains("'2-5' is not a block; allowed " + Block.ALLOWED), odd.getMessage());

        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> RegionPlan.parse("p", stack("eu", "eu-west-1", "snowid", "0-3")));
        assertTrue(none.getMessage().contains("no [registry.deploy.parameters]"), none.getMessage());
    }

    @Test
    void textOutsideTheSubsetIsRefusedWithItsLine() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> RegionPlan.parse("plan.toml", REGISTRY + "[eu.deploy.parameters]\nstack_name = {inline = 1}\n"));
        assertTrue(refused.getMessage().startsWith("plan.toml, line 7:"), refused.getMessage());
    }
}
