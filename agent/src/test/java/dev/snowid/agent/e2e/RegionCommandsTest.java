package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.agent.SnowidCli;
import dev.snowid.agent.cli.CheckCommand;
import dev.snowid.agent.cli.LeasesCommand;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI among regions, against local runners acting as regions with one claim registry: check's
 * region step (claimed, unguarded, refused), the fleet view over several stacks flagging a stack
 * that leases from a block claimed by another, and decode naming an ID's region by the plan or by
 * any stack's API.
 */
@ExtendWith(DynamoDbEngine.class)
class RegionCommandsTest {

    private static final String SECRET = "region-cli-a2d32e11ffcef04860ac974f7ec67890e9445e82fc8b0757e1bd3e3e2829b941";
    private final String registry = "snowid-registry-" + UUID.randomUUID();

    private Map<String, String> runner(String region, String datacenters, boolean guarded) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put(FunctionSettings.REGION, region);
        env.put(FunctionSettings.DATACENTERS, datacenters);
        if (guarded) {
            env.put(FunctionSettings.REGISTRY_TABLE, registry);
            env.put(FunctionSettings.REGISTRY_ENDPOINT, DynamoDbEngine.shared().endpoint().toString());
        }
        return env;
    }

    @Test
    void checkPassesAClaimedAndAnUnguardedStackAndFailsAnOverlappingOneAtItsLease() {
        try (LocalRunner eu = LocalRunner.start(runner("eu-local", "16-19", true));
                LocalRunner us = LocalRunner.start(runner("us-local", "16-19", true));
                LocalRunner alone = LocalRunner.start(runner("local", "0-3", false))) {
            Run claimed = check(eu);
            assertEquals(0, claimed.status, claimed.toString());
            assertTrue(claimed.out.contains("ok   region    eu-local/snowid: block 4 (datacenters 16-19) claimed in the registry for this"
                    + " stack alone"), claimed.toString());
            assertTrue(claimed.out.contains("check passed: 8 steps"), claimed.toString());

            Run unguarded = check(alone);
            assertEquals(0, unguarded.status, unguarded.toString());
            assertTrue(unguarded.out.contains("ok   region    local: unguarded (no claim registry)"), unguarded.toString());

            Run refused = check(us);
            assertEquals(1, refused.status, refused.toString());
            assertTrue(refused.out.contains("FAIL lease") && refused.out.contains("block_not_claimed"), refused.toString());
        }
    }

    @Test
    void theFleetViewShowsEveryRegionAndFlagsAStackLeasingFromABlockClaimedByAnother() throws Exception {
        try (LocalRunner eu = LocalRunner.start(runner("eu-local", "20-23", true));
                LocalRunner us = LocalRunner.start(runner("us-local", "24-27", true));
                LocalRunner rogue = LocalRunner.start(runner("ap-local", "20-23", false))) {
            for (LocalRunner region : new LocalRunner[] {eu, us, rogue}) {
                assertEquals(200, get(region, "/ids").statusCode());
            }
            Run agreeing = leases(eu, us);
            assertEquals(0, agreeing.status, agreeing.toString());
            assertTrue(agreeing.out.contains("== " + eu.baseUri() + ": eu-local/snowid, claimed"), agreeing.out);
            assertTrue(agreeing.out.contains("== " + us.baseUri() + ": us-local/snowid, claimed"), agreeing.out);
            assertTrue(agreeing.out.contains("block 5 (datacenters 20-23)") && agreeing.out.contains("block 6 (datacenters 24-27)"),
                    agreeing.out);
            assertTrue(agreeing.out.contains("every live lease lies in a block the registry gives to its own stack"), agreeing.out);

            Run flagged = leases(eu, us, rogue);
            assertEquals(1, flagged.status, flagged.toString());
            assertTrue(flagged.out.contains("DISAGREE block 5 (datacenters 20-23): ap-local/snowid holds 1 live lease in it, but the"
                    + " registry gives it to eu-local/snowid"), flagged.out);
        }
    }

    @Test
    void decodeNamesTheRegionByThePlanOrByAnyStacksApi(@TempDir Path dir) throws Exception {
        try (LocalRunner eu = LocalRunner.start(runner("eu-local", "28-31", true))) {
            String id = get(eu, "/ids").body().replaceAll(".*\"([0-9]+)\".*", "$1");
            Run api = decode("--api", eu.baseUri().toString(), id);
            assertEquals(0, api.status, api.toString());
            assertTrue(api.out.contains("region:     eu-local"), api.out);

            Path plan = Files.writeString(dir.resolve("regions.toml"), "[registry.deploy.parameters]\nstack_name = \"r\"\n"
                    + "region = \"eu-west-1\"\n[eu.deploy.parameters]\nstack_name = \"snowid\"\nregion = \"eu-west-1\"\n"
                    + "parameter_overrides = \"Datacenters=28-31 RegistryRegion=eu-west-1 RegistryTable=snowid-registry\"\n");
            Run planned = decode("--plan", plan.toString(), id);
            assertEquals(0, planned.status, planned.toString());
            assertTrue(planned.out.contains("region:     eu-west-1 (the plan's stack for block 7 (datacenters 28-31))"), planned.out);
        }
    }

    private static final class Run {
        final int status;
        final String out;
        final String err;

        Run(int status, ByteArrayOutputStream out, ByteArrayOutputStream err) {
            this.status = status;
            this.out = out.toString(StandardCharsets.UTF_8);
            this.err = err.toString(StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return "exit " + status + "\n" + out + err;
        }
    }

    private static Run check(LocalRunner runner) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CheckCommand.run(new String[] {runner.baseUri().toString()}, Collections.singletonMap("SNOWID_LEASE_SECRET", SECRET),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out, err);
    }

    private static Run leases(LocalRunner... runners) {
        String[] urls = new String[runners.length];
        for (int i = 0; i < runners.length; i++) {
            urls[i] = runners[i].baseUri().toString();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = LeasesCommand.run(urls, Collections.singletonMap("SNOWID_LEASE_SECRET", SECRET),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out, err);
    }

    private static Run decode(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 1];
        all[0] = "decode";
        System.arraycopy(args, 0, all, 1, args.length);
        int status = SnowidCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out, err);
    }

    private static HttpResponse<String> get(LocalRunner runner, String path) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(runner.baseUri() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
