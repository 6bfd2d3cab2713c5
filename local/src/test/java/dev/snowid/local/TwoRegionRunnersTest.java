package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.lambda.json.TestJson;
import dev.snowid.lambda.region.RegionCommand;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.region.Block;
import dev.snowid.testing.engine.DynamoDbEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Two local runners acting as two regions, each with its own lease table, and one claim registry
 * on an engine the test starts (never a runner's own): the second runner on the first one's
 * block refuses with the documented error while the first keeps issuing; a block released by
 * the region command goes to the other runner, and every decoded ID names the region that issued it.
 */
@ExtendWith(DynamoDbEngine.class)
class TwoRegionRunnersTest {

    private static final String SECRET = "two-regions-562ed8c3264874d01aa6d5ce4accfea29e34c5a72b752c9a48806a8bd1b740dd";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String run = UUID.randomUUID().toString().substring(0, 8);

    private static Map<String, String> region(String region, String registry, String... more) {
        Map<String, String> env = new HashMap<>(Map.of(LocalSettings.LOCAL_PORT, "0", LocalSettings.LOCAL_LEASE_SECRET, SECRET,
                FunctionSettings.REGION, region, FunctionSettings.DATACENTERS, "8-11", FunctionSettings.REGISTRY_TABLE, registry,
                FunctionSettings.REGISTRY_ENDPOINT, DynamoDbEngine.shared().endpoint().toString()));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    @Test
    void theSecondRunnerOnAClaimedBlockRefusesAndTheFirstKeepsIssuing() {
        String registry = "snowid-registry-" + run;
        try (LocalRunner eu = LocalRunner.start(region("eu-local", registry));
                LocalRunner us = LocalRunner.start(region("us-local", registry))) {
            String id = firstId(get(eu, "/ids", 200));

            HttpResponse<String> refused = get(us, "/ids", 503);
            assertEquals("block_not_claimed", TestJson.text(json(refused), "error"));
            assertEquals("60", refused.headers().firstValue("Retry-After").orElse(""));
            HttpResponse<String> agents = send(us, "POST", "/leases", "Bearer " + SECRET, "");
            assertEquals(503, agents.statusCode(), agents::body);
            assertEquals("block_not_claimed", TestJson.text(json(agents), "error"));
            assertEquals("refused", TestJson.text(json(get(us, "/health", 200)), "guard"));

            get(eu, "/ids?count=10", 200);
            assertEquals("claimed", TestJson.text(json(get(eu, "/health", 200)), "guard"));
            assertEquals("eu-local", TestJson.text(json(get(us, "/ids/" + id, 200)), "region"), "the refused runner names the issuer");
        }
    }

    @Test
    void aReleasedBlockGoesToTheOtherRegionAndEveryIdStillNamesItsOwn(@TempDir Path dir) throws IOException {
        String registry = "snowid-registry-" + run;
        String engine = DynamoDbEngine.shared().endpoint().toString();
        String euStack = "eu-" + run;
        String usStack = "us-" + run;
        String[] euTable = {FunctionSettings.STACK, euStack, FunctionSettings.TABLE, euStack + "-leases",
            FunctionSettings.DYNAMODB_ENDPOINT, engine};
        String[] usTable = {FunctionSettings.STACK, usStack, FunctionSettings.TABLE, usStack + "-leases",
            FunctionSettings.DYNAMODB_ENDPOINT, engine};
        String euId;
        try (LocalRunner eu = LocalRunner.start(region("eu-local", registry, euTable))) {
            euId = firstId(get(eu, "/ids", 200));
        } // Stopping it releases its lease: no lease of the block is in force any more.

        Path plan = Files.writeString(dir.resolve("regions.toml"), "[registry.deploy.parameters]\nstack_name = \"registry\"\n"
                + "region = \"local\"\nparameter_overrides = \"TableName=" + registry + "\"\n"
                + "[eu.deploy.parameters]\nstack_name = \"" + euStack + "\"\nregion = \"eu-local\"\n"
                + "parameter_overrides = \"Datacenters=8-11 RegistryRegion=local RegistryTable=" + registry + "\"\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RegionCommand.run(new String[] {"release", plan.toString(), "eu", "--endpoint", engine},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("released block 2 (datacenters 8-11) from eu-local/" + euStack), out.toString());

        String usId;
        try (LocalRunner us = LocalRunner.start(region("us-local", registry, usTable))) {
            usId = firstId(get(us, "/ids", 200));
            SnowflakeId before = SnowflakeCodec.TWITTER.parse(euId);
            SnowflakeId after = SnowflakeCodec.TWITTER.parse(usId);
            assertTrue(Block.of(2).contains(before.slot()) && Block.of(2).contains(after.slot()), before + " " + after);
            assertTrue(after.unixMillis() > before.unixMillis(), "the new region's IDs start after the old region's last");
            assertEquals("eu-local", TestJson.text(json(get(us, "/ids/" + euId, 200)), "region"));
            assertEquals("us-local", TestJson.text(json(get(us, "/ids/" + usId, 200)), "region"));
        }
        try (LocalRunner euAgain = LocalRunner.start(region("eu-local", registry, euTable))) {
            assertEquals("block_not_claimed", TestJson.text(json(get(euAgain, "/ids", 503)), "error"), "a released block stays refused");
            assertEquals("us-local", TestJson.text(json(get(euAgain, "/ids/" + usId, 200)), "region"));
        }
    }

    /** Issue 32's reproduction: a claim marker written into the refused region's own table grants it nothing. */
    @Test
    void aMarkerWrittenIntoTheRefusedRegionsTableGrantsNothingWhileTheRegistryNamesTheOther() {
        String registry = "snowid-registry-" + run;
        String engine = DynamoDbEngine.shared().endpoint().toString();
        String usTable = "us-" + run + "-leases";
        try (LocalRunner eu = LocalRunner.start(region("eu-local", registry));
                LocalRunner us = LocalRunner.start(region("us-local", registry, FunctionSettings.TABLE, usTable,
                        FunctionSettings.DYNAMODB_ENDPOINT, engine))) {
            get(eu, "/ids", 200);
            get(us, "/ids", 503);
            DynamoDbEngine.shared().client().putItem(put -> put.tableName(usTable).item(Map.of(
                    "slot", AttributeValue.fromN(Long.toString(-1 - Block.of(2).index())), "region", AttributeValue.fromS("us-local"),
                    "stack", AttributeValue.fromS("snowid"), "state", AttributeValue.fromS("claimed"), "floor", AttributeValue.fromN("0"),
                    "at", AttributeValue.fromN("0"), "claimId", AttributeValue.fromS("0123456789abcdef0123456789abcdef"))));

            HttpResponse<String> refused = get(us, "/ids", 503);
            assertEquals("block_not_claimed", TestJson.text(json(refused), "error"));
            assertEquals(503, send(us, "POST", "/leases", "Bearer " + SECRET, "").statusCode());
            assertEquals("refused", TestJson.text(json(get(us, "/health", 200)), "guard"));
            get(eu, "/ids?count=10", 200);
            assertEquals("claimed", TestJson.text(json(get(eu, "/health", 200)), "guard"));
        }
    }

    private static String firstId(HttpResponse<String> ids) {
        return TestJson.text(TestJson.items(json(ids), "ids").get(0));
    }

    private HttpResponse<String> get(LocalRunner runner, String path, int status) {
        HttpResponse<String> answer = send(runner, "GET", path, null, null);
        assertEquals(status, answer.statusCode(), answer::body);
        return answer;
    }

    private static JsonValue json(HttpResponse<String> answer) {
        return TestJson.parse(answer.body());
    }

    private HttpResponse<String> send(LocalRunner runner, String method, String pathAndQuery, String authorization, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(runner.baseUri() + pathAndQuery)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
