package dev.snowid.lambda.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.dynamodb.TestRegistries;
import dev.snowid.lease.Lease;
import dev.snowid.region.Block;
import dev.snowid.testing.engine.DynamoDbEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's region command on a real engine: plan, claims, release (refused while a lease is
 * in force, naming it), claim again; and its exit statuses for wrong arguments and a bad plan.
 */
@ExtendWith(DynamoDbEngine.class)
class RegionCommandTest {

    private final String stack = "cmd-" + UUID.randomUUID().toString().substring(0, 8);
    private final String engine = DynamoDbEngine.shared().endpoint().toString();

    private record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = RegionCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void releaseIsRefusedWhileALeaseIsInForceThenReleasesAndClaimsAgain(@TempDir Path dir) throws IOException {
        String registry = TestRegistries.newTable(DynamoDbEngine.shared());
        LeaseTable.createIfMissing(DynamoDbEngine.shared().endpoint(), stack + "-leases");
        Path plan = Files.writeString(dir.resolve("plan.toml"), "[registry.deploy.parameters]\nstack_name = \"r\"\nregion = \"eu-west-1\"\n"
                + "parameter_overrides = \"TableName=" + registry + "\"\n[eu.deploy.parameters]\nstack_name = \"" + stack + "\"\n"
                + "region = \"eu-west-1\"\nparameter_overrides = \"Datacenters=12-15 RegistryRegion=eu-west-1 RegistryTable=" + registry + "\"\n");
        assertEquals(0, run("plan", plan.toString()).status());
        assertEquals("registry\neu\n", run("plan", plan.toString(), "--envs").out());

        Run notClaimed = run("release", plan.toString(), "eu", "--endpoint", engine);
        assertEquals(1, notClaimed.status(), notClaimed.toString());
        assertTrue(notClaimed.err().contains("is not claimed by eu-west-1/" + stack + " in the registry: it is free"), notClaimed.err());

        assertEquals(0, run("claim", plan.toString(), "eu", "--endpoint", engine).status());
        try (DynamoDbLeaseStore table = DynamoDbLeaseStore.builder().table(stack + "-leases").clock(WallClock.SYSTEM)
                .client(LeaseTableClient.builder().endpoint(DynamoDbEngine.shared().endpoint())).build()) {
            long now = System.currentTimeMillis();
            Slot slot = Block.of(3).slots().slots().get(9);
            Lease lease = table.tryAcquire(slot, "0123456789abcdef0123456789abcdef", "billing on host-9", now, now + 60_000).orElseThrow();

            Run live = run("release", plan.toString(), "eu", "--endpoint", engine);
            assertEquals(1, live.status(), live.toString());
            assertTrue(live.err().contains("slot " + slot + " held by 'billing on host-9'"), live.err());

            table.release(slot, lease.owner(), lease.fence(), now + 5);
        }
        Run released = run("release", plan.toString(), "eu", "--endpoint", engine);
        assertEquals(0, released.status(), released.toString());
        assertTrue(released.out().startsWith("released block 3 (datacenters 12-15) from eu-west-1/" + stack), released.out());

        Run claims = run("claims", plan.toString(), "--endpoint", engine);
        assertTrue(claims.out().contains("block 3 (datacenters 12-15): free, next claim starts at"), claims.out());
        assertTrue(claims.out().contains("    earlier: eu-west-1/" + stack + ", IDs from 0"), claims.out());

        Run again = run("claim", plan.toString(), "eu", "--endpoint", engine);
        assertEquals(0, again.status(), again.toString());
        assertTrue(again.out().startsWith("claimed block 3 (datacenters 12-15) for eu-west-1/" + stack), again.out());
    }

    @Test
    void wrongArgumentsAreExit2AndABadPlanExit1(@TempDir Path dir) throws IOException {
        assertEquals(2, run().status());
        assertEquals(2, run("release", "plan.toml").status(), "release needs an environment");
        assertEquals(2, run("deploy", "plan.toml").status());
        Path bad = Files.writeString(dir.resolve("bad.toml"), "[eu.deploy.parameters]\nstack_name = \"s\"\nregion = \"eu-west-1\"\n");
        Run refused = run("plan", bad.toString());
        assertEquals(1, refused.status());
        assertTrue(refused.err().contains("no [registry.deploy.parameters]"), refused.err());
    }
}
