package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.dynamodb.DynamoDbClaimRegistry;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.dynamodb.RegistrySchema;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.Claimant;
import dev.snowid.region.plan.RegionPlan;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnMoto;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.regions.Region;

/**
 * The example region plan (infra/regions.toml) deployed on moto, whose one server serves every
 * region: the registry stack in its home region, then each regional stack in its own region,
 * each function run from its deployed environment. Both stacks claim their own blocks and issue
 * from them. A third stack whose block overlaps is refused twice: by the plan's check before
 * anything deploys, and, deployed anyway, by the registry at run time, while the first keeps
 * issuing.
 */
@OnMoto
class MotoRegionsDeployTest {

    private static final Path PLAN = Template.location().resolveSibling("regions.toml");

    @Test
    void thePlanDeploysToTwoRegionsWithDistinctBlocksAndAnOverlappingThirdStackIsRefused(DynamoDbEngine.Running moto)
            throws IOException {
        RegionPlan plan = RegionPlan.read(PLAN);
        MotoStack.deployPlain(moto, plan.registryStack(), Map.of(RegionPlan.TABLE_NAME, plan.registryTable()),
                Region.of(plan.registryRegion()), PLAN.resolveSibling("registry.yaml"));
        Map<String, MotoStack> stacks = new LinkedHashMap<>();
        for (RegionPlan.Stack stack : plan.stacks()) {
            stacks.put(stack.env(), MotoStack.deploy(moto, stack.claimant().stack(), stack.parameters(),
                    Region.of(stack.claimant().region())));
        }

        for (RegionPlan.Stack stack : plan.stacks()) {
            MotoStack deployed = stacks.get(stack.env());
            String role = deployed.physicalId("FunctionRole");
            String document = java.net.URLDecoder.decode(deployed.iam.getRolePolicy(b -> b.roleName(role).policyName("claim-registry"))
                    .policyDocument(), StandardCharsets.UTF_8);
            java.util.Set<Object> actions = new java.util.HashSet<>();
            for (Object item : Template.list(Template.map(new org.yaml.snakeyaml.Yaml().load(document)).get("Statement"))) {
                Map<String, Object> statement = Template.map(item);
                actions.addAll(Template.oneOrMany(statement.get("Action")));
                assertEquals("arn:aws:dynamodb:" + plan.registryRegion() + ":" + deployed.account() + ":table/" + plan.registryTable(),
                        statement.get("Resource"), stack.env());
                if (Template.oneOrMany(statement.get("Action")).contains("dynamodb:UpdateItem")) {
                    // As deployed (FindInMap resolved): its own block's key only.
                    assertEquals(List.of(Integer.toString(stack.block().index())), Template.oneOrMany(Template.at(statement,
                            "Condition", "ForAllValues:StringEquals", "dynamodb:LeadingKeys").orElse(null)), stack.env());
                }
            }
            assertEquals(java.util.Set.copyOf(RegistrySchema.ACTIONS_USED), actions, stack.env() + ": the registry's actions across regions");
        }

        String euId = null;
        for (RegionPlan.Stack stack : plan.stacks()) {
            try (SnowidHandler function = function(moto, stacks.get(stack.env()))) {
                JsonNode ids = body(invoke(function, "GET", "/ids", "count=3"), 200);
                for (JsonNode id : ids.field("ids").orElseThrow().asArray()) {
                    assertTrue(stack.block().contains(SnowflakeCodec.TWITTER.parse(id.text()).slot()), stack.env() + ": " + id.text());
                }
                euId = euId == null ? ids.field("ids").orElseThrow().asArray().get(0).text() : euId;
                assertEquals("claimed", body(invoke(function, "GET", "/health", ""), 200).field("guard").orElseThrow().text());
            }
        }
        Map<Block, BlockClaims> claims = registry(moto, plan).claims();
        for (RegionPlan.Stack stack : plan.stacks()) {
            assertEquals(stack.claimant(), claims.get(stack.block()).current().claimant(), stack.env());
        }
        assertNotEquals(plan.stack("eu-west-1").block(), plan.stack("us-east-1").block());

        // A third stack with the first one's block: the plan's check refuses it before anything deploys...
        String third = Files.readString(PLAN) + "\n[ap-south-1.deploy.parameters]\nstack_name = \"snowid\"\nregion = \"ap-south-1\"\n"
                + "parameter_overrides = \"Datacenters=0-3 RegistryRegion=" + plan.registryRegion() + " RegistryTable="
                + plan.registryTable() + " LeaseAuth=BEARER LeaseSecretSha256=" + "0123456789abcdef".repeat(4) + "\"\n";
        IllegalArgumentException checked = assertThrows(IllegalArgumentException.class, () -> RegionPlan.parse("three.toml", third));
        assertTrue(checked.getMessage().contains("ap-south-1: block 0 (datacenters 0-3) is eu-west-1's already"), checked.getMessage());

        // ...and deployed anyway, its function refuses at run time while the first keeps issuing.
        Map<String, String> overlapping = new HashMap<>(plan.stack("eu-west-1").parameters());
        overlapping.put("LeaseAuth", "BEARER");
        overlapping.remove("LeasePrincipals");
        overlapping.put("LeaseSecretSha256", "0123456789abcdef".repeat(4));
        MotoStack rogue = MotoStack.deploy(moto, "snowid", overlapping, Region.AP_SOUTH_1);
        try (SnowidHandler function = function(moto, rogue)) {
            JsonNode refused = body(invoke(function, "GET", "/ids", ""), 503);
            assertEquals("block_not_claimed", refused.field("error").orElseThrow().text());
            assertEquals("refused", body(invoke(function, "GET", "/health", ""), 200).field("guard").orElseThrow().text());
            JsonNode decoded = body(invoke(function, "GET", "/ids/" + euId, ""), 200);
            assertEquals("eu-west-1", decoded.field("region").orElseThrow().text(), "every stack names the region of an ID");
        }
        try (SnowidHandler eu = function(moto, stacks.get("eu-west-1"))) {
            body(invoke(eu, "GET", "/ids", ""), 200);
        }
        assertEquals(Claimant.of("eu-west-1", "snowid"), registry(moto, plan).claims().get(Block.of(0)).current().claimant());
    }

    /** The deployed function's handler, built here from its environment, its lease table reached in its own region. */
    private static SnowidHandler function(DynamoDbEngine.Running moto, MotoStack stack) {
        Map<String, String> environment = new HashMap<>(stack.lambda.getFunctionConfiguration(b -> b.functionName(stack.functionName()))
                .environment().variables());
        environment.put(FunctionSettings.REGISTRY_ENDPOINT, stack.endpoint);
        FunctionSettings settings = FunctionSettings.from(environment);
        DynamoDbLeaseStore table = DynamoDbLeaseStore.builder().table(settings.table()).clock(WallClock.SYSTEM)
                .client(LeaseTableClient.builder().endpoint(moto.endpoint()).region(stack.region.id())).build();
        return SnowidHandler.builder(settings).store(table).build();
    }

    private static DynamoDbClaimRegistry registry(DynamoDbEngine.Running moto, RegionPlan plan) {
        return DynamoDbClaimRegistry.create(plan.registryTable(), "RegistryTable", plan.registryRegion(), Optional.of(moto.endpoint()));
    }

    private static String invoke(SnowidHandler handler, String method, String path, String query) {
        return MotoDeployTest.invoke(handler, method, path, query, null);
    }

    private static JsonNode body(String response, int status) {
        return MotoDeployTest.body(response, status);
    }
}
