package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.dynamodb.RegistrySchema;
import dev.snowid.region.Block;
import dev.snowid.region.plan.RegionPlan;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-region files of infra/: the example plan (regions.toml) reads as a plan whose every
 * stack deploys (allowed values, the template's Rules pass); the registry's template keys its
 * table as the code does and keeps it; the template states no default block; and regions.sh
 * deploys the registry first, then every stack, and nothing when the plan is wrong.
 */
class RegionPlanFilesTest {

    private static final Path INFRA = Template.location().getParent();

    private final Template template = Template.load();

    @Test
    void theTemplateHasNoDefaultBlockAndItsRegistryParametersComeTogether() {
        Map<String, Object> datacenters = map(template.parameters().get(RegionPlan.DATACENTERS));
        assertFalse(datacenters.containsKey("Default"), "every stack states its block: " + datacenters);
        List<String> blocks = new ArrayList<>();
        for (int i = 0; i < Block.COUNT; i++) {
            blocks.add(Block.of(i).datacenters());
        }
        assertEquals(blocks, list(datacenters.get("AllowedValues")).stream().map(String::valueOf).toList(), "the eight blocks");
        Map<String, String> values = deployable(Map.of(RegionPlan.DATACENTERS, "4-7", "RegistryRegion", "eu-west-1"));
        TemplateDriftTest.assertMentions(new RulesEvaluator(template).violations(values), "set RegistryTable too");
        values.put(RegionPlan.REGISTRY_TABLE, "snowid-registry");
        assertEquals(List.of(), new RulesEvaluator(template).violations(values));
    }

    @Test
    void everyStackOfTheExamplePlanDeploysAndTheRegistryStackNamesItsTable() {
        RegionPlan plan = RegionPlan.read(INFRA.resolve("regions.toml"));

        assertEquals(List.of(RegionPlan.REGISTRY_ENV, "eu-west-1", "us-east-1"), plan.deployOrder());
        for (RegionPlan.Stack stack : plan.stacks()) {
            stack.parameters().forEach((name, value) -> {
                Map<String, Object> parameter = map(template.parameters().get(name));
                assertFalse(parameter.isEmpty(), stack.env() + ": the template has no parameter " + name);
                Object allowed = parameter.get("AllowedValues");
                if (allowed != null) {
                    assertTrue(list(allowed).stream().map(String::valueOf).toList().contains(value), stack.env() + ": " + name + "=" + value);
                }
            });
            assertEquals(List.of(), new RulesEvaluator(template).violations(deployable(stack.parameters())), stack.env());
        }
        assertNotEquals(plan.stack("eu-west-1").block(), plan.stack("us-east-1").block());
        Template registry = registry();
        assertTrue(registry.parameters().containsKey(RegionPlan.TABLE_NAME));
        assertEquals(plan.registryTable(), map(registry.parameters().get(RegionPlan.TABLE_NAME)).get("Default"));
    }

    @Test
    void theRegistryTableIsKeyedByBlockInOneRegionAndKept() {
        Template registry = registry();
        String id = registry.single("AWS::DynamoDB::Table").orElseThrow();
        Map<String, Object> table = registry.resource(id);
        assertEquals("Retain", table.get("DeletionPolicy"));
        assertEquals("Retain", table.get("UpdateReplacePolicy"));
        Map<String, Object> properties = registry.properties(id);
        assertEquals(List.of(Map.of("AttributeName", RegistrySchema.BLOCK, "KeyType", "HASH")), properties.get("KeySchema"));
        assertEquals(List.of(Map.of("AttributeName", RegistrySchema.BLOCK, "AttributeType", "N")), properties.get("AttributeDefinitions"));
        assertEquals(true, properties.get("DeletionProtectionEnabled"));
        assertEquals(true, at(properties, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled").orElseThrow());
        assertFalse(properties.containsKey("StreamSpecification"), "no stream: nothing replicates it");
        assertTrue(registry.resourcesOfType("AWS::DynamoDB::GlobalTable").isEmpty(), "never a global table");
    }

    @Test
    void deployChecksThePlanThenDeploysTheRegistryFirstAndEveryStackWithItsTemplate(@TempDir Path dir) throws Exception {
        Path calls = dir.resolve("sam-calls.txt");
        Result deployed = regionsSh(dir, calls, "deploy", INFRA.resolve("regions.toml").toString());

        assertEquals(0, deployed.status(), deployed.output());
        List<String> lines = Files.readAllLines(calls);
        String config = " --config-file " + INFRA.resolve("regions.toml").toAbsolutePath();
        assertEquals(List.of(
                "deploy --template-file " + INFRA.resolve("registry.yaml") + config + " --config-env registry",
                "deploy --template-file " + INFRA.resolve("template.yaml") + config + " --config-env eu-west-1",
                "deploy --template-file " + INFRA.resolve("template.yaml") + config + " --config-env us-east-1"), lines);
    }

    @Test
    void aPlanWithOverlappingBlocksDeploysNothing(@TempDir Path dir) throws Exception {
        String overlapping = Files.readString(INFRA.resolve("regions.toml")).replace("\"Datacenters=4-7\"", "\"Datacenters=0-3\"");
        Path plan = Files.writeString(dir.resolve("overlap.toml"), overlapping);
        Path calls = dir.resolve("sam-calls.txt");

        Result refused = regionsSh(dir, calls, "deploy", plan.toString());

        assertEquals(1, refused.status(), refused.output());
        assertTrue(refused.output().contains("us-east-1: block 0 (datacenters 0-3) is eu-west-1's already"), refused.output());
        assertFalse(Files.exists(calls), "sam was never called");
    }

    private record Result(int status, String output) {
    }

    /** Runs infra/regions.sh with a stand-in `sam` first on PATH that records its arguments (the real deploy runs on moto). */
    private static Result regionsSh(Path dir, Path calls, String... args) throws IOException, InterruptedException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path sam = bin.resolve("sam");
        Files.writeString(sam, "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n");
        Files.setPosixFilePermissions(sam, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> command = new ArrayList<>(List.of(INFRA.resolve("regions.sh").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PATH", bin + ":" + Path.of(System.getProperty("java.home"), "bin") + ":/usr/bin:/bin");
        builder.environment().put("SNOWID_FUNCTION_JAR", Path.of(System.getProperty("snowid.function.jar")).toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "regions.sh did not finish");
        return new Result(process.exitValue(), output);
    }

    private Map<String, String> deployable(Map<String, String> stated) {
        Map<String, String> values = new LinkedHashMap<>();
        template.parameters().forEach((name, declared) -> values.put(name, String.valueOf(map(declared).getOrDefault("Default", ""))));
        values.putAll(stated);
        if ("BEARER".equals(values.get("LeaseAuth"))) {
            values.put("LeaseSecretSha256", "0123456789abcdef".repeat(4));
        }
        return values;
    }

    private static Template registry() {
        return new Template(CloudFormationYaml.load(INFRA.resolve("registry.yaml")));
    }
}
