package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.local.LocalRunner;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How agents behave as holders of a lease, against the real lease API (the function's local
 * runner on a real engine), with agent JVMs as child processes: a lease API that hangs, an epoch
 * other than the function's, a pool that is full at start-up. On the test's own JDK: what is
 * tested here is the lease client, not the bytecode rewriting (AgentLeaseIT runs on every JDK).
 */
@ExtendWith(DynamoDbEngine.class)
class AgentLeaseHoldersIT {

    private static final Jdk JDK = Jdk.all().get(0);
    private static final Pattern TIMED = Pattern.compile(
            "REFUSED (\\d+) SLOWEST_MS (\\d+) FIRST_REFUSED_AT (\\d+) LAST_ID_AT (\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "onUnavailable={0}")
    @ValueSource(strings = {"throw", "wait:300"})
    void withTheLeaseApiHangingCallersNeverWaitOnItOnceTheWindowHasEnded(String policy, TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, AgentLeaseIT.DATACENTER);
             FaultyProxy proxy = FaultyProxy.inFrontOf(api.baseUri())) {
            Path ids = dir.resolve("timed");
            Process app = LeasedAgents.leased(JDK, proxy.endpoint().toString()).property("snowid.onUnavailable", policy)
                    .start(ids, "com.acme.legacy.TimedCallsApp", ids.toString(), "1500");
            ChildJvm.awaitIds(ids, app, 1000);
            proxy.hang(); // from now on the API accepts every request and answers none: the renewal will hang

            Matcher timed = ChildJvm.awaitOutput(ids, app, TIMED);
            long expiresAt = expiresAt(table, onlySlot(IdsFile.read(ids))); // the hung renewal never reached the API
            proxy.passThrough(); // drops the hung connections: the JVM's shutdown releases the lease at once
            assertTrue(app.waitFor(60, TimeUnit.SECONDS), () -> ChildJvm.output(ids));
            assertEquals(0, app.exitValue(), () -> ChildJvm.output(ids));

            long refused = Long.parseLong(timed.group(1));
            long slowestMillis = Long.parseLong(timed.group(2));
            long firstRefusedAt = Long.parseLong(timed.group(3));
            long lastIdAt = Long.parseLong(timed.group(4));
            long waitMillis = policy.equals("throw") ? 0 : 300;
            System.out.printf("hanging lease API, onUnavailable=%s: %d refused calls, slowest %d ms, first refusal %d ms after the"
                    + " window's end%n", policy, refused, slowestMillis, firstRefusedAt - expiresAt);
            String output = ChildJvm.output(ids);
            assertTrue(lastIdAt < expiresAt, "no ID after the window's end " + expiresAt + ": " + lastIdAt);
            for (long id : IdsFile.read(ids)) {
                assertTrue(SnowflakeCodec.TWITTER.decode(id).unixMillis() < expiresAt, "ID " + id + " past the window");
            }
            // Queued behind the renewal, callers would wait up to its 10 s read timeout; a loaded machine
            // may hold a thread back for a moment, hence the margin.
            assertTrue(firstRefusedAt - expiresAt < waitMillis + 1_000, "the first refusal came "
                    + (firstRefusedAt - expiresAt) + " ms after the window's end\n" + output);
            assertTrue(slowestMillis < waitMillis + 1_000, "the slowest refused call took " + slowestMillis + " ms\n" + output);
            assertTrue(slowestMillis >= waitMillis, "wait:<ms> waits that long before it fails: " + slowestMillis + " ms");
            assertTrue(output.contains("a call to the lease source has been in progress"), output);
        }
    }

    @Test
    void anEpochOtherThanTheFunctionsIsRefusedAndTheGrantedSlotFreedAtOnce(TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, AgentLeaseIT.DATACENTER)) {
            long twoSecondsOff = SnowflakeCodec.TWITTER_EPOCH_MILLIS + 2_000;
            Path run = dir.resolve("epoch");
            ChildJvm.Result result = LeasedAgents.leased(JDK, api.baseUri().toString()).property("snowid.epoch", Long.toString(twoSecondsOff))
                    .run(run, "com.acme.legacy.LeasedApp", run.toString(), "500");

            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("[snowid] ERROR: snowid.epoch='" + twoSecondsOff + "' is not the lease API's epoch"),
                    result::toString);
            assertTrue(result.stderr.contains("configure epoch " + SnowflakeCodec.TWITTER_EPOCH_MILLIS), result::toString);
            assertFalse(result.stdout.contains("RUNNING"), "main never ran:\n" + result);
            List<Map<String, AttributeValue>> items = items(table);
            assertEquals(1, items.size(), "one slot was granted: " + items);
            assertFalse(items.get(0).containsKey("owner"), "and released at once: " + items);
        }
    }

    @Test
    void withoutAnEpochTheAgentAdoptsTheFunctions(TestTable table) throws Exception {
        long custom = 1_600_000_000_000L;
        Map<String, String> env = LeaseApi.environment(table, AgentLeaseIT.DATACENTER, LeasedAgents.SLOTS);
        env.put("SNOWID_EPOCH_MILLIS", Long.toString(custom));
        try (LocalRunner api = LocalRunner.start(env)) {
            Path run = dir.resolve("adopted");
            long before = System.currentTimeMillis();
            ChildJvm.Result result = LeasedAgents.leased(JDK, api.baseUri().toString()).run(run, "com.acme.legacy.LeasedApp", run.toString(), "300");
            long after = System.currentTimeMillis();

            assertEquals(0, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("epoch " + custom + " (the lease API's)"), result::toString);
            long[] ids = IdsFile.read(run);
            assertTrue(ids.length > 0);
            SnowflakeCodec functions = SnowflakeCodec.withEpoch(custom);
            for (long id : ids) {
                long at = functions.decode(id).unixMillis();
                assertTrue(at >= before && at <= after, "ID " + id + " read with the function's epoch lies at " + at
                        + ", not within the run [" + before + ", " + after + "]");
            }
        }
    }

    @Test
    void aFullPoolAtStartUpExitsSayingSoOrWithTheOptionWaitsForASlot(TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, AgentLeaseIT.DATACENTER)) {
            String url = api.baseUri().toString();
            // The pool's two slots, held for 12 s (long enough for the refused JVM to start and fail on a loaded machine), then released by graceful exits.
            Process a = LeasedAgents.leased(JDK, url).start(dir.resolve("a"), "com.acme.legacy.LeasedApp", dir.resolve("a").toString(), "12000");
            Process b = LeasedAgents.leased(JDK, url).start(dir.resolve("b"), "com.acme.legacy.LeasedApp", dir.resolve("b").toString(), "12000");
            ChildJvm.awaitIds(dir.resolve("a"), a, 1000);
            ChildJvm.awaitIds(dir.resolve("b"), b, 1000);

            Path refusedRun = dir.resolve("refused");
            ChildJvm.Result refused = LeasedAgents.leased(JDK, url).run(refusedRun, "com.acme.legacy.LeasedApp", refusedRun.toString(), "100");
            assertEquals(1, refused.exitCode, refused::toString);
            assertTrue(refused.stderr.contains("the lease pool is full: every slot is held by another holder"), refused::toString);
            assertTrue(refused.stderr.contains("A slot frees when its holder stops"), refused::toString);
            assertTrue(refused.stderr.contains("set snowid.lease.waitForSlot=<ms>"), refused::toString);
            assertFalse(refused.stderr.contains("fix the configuration"), "a full pool is not a configuration error:\n" + refused);

            Path waited = dir.resolve("waited");
            ChildJvm.Result waiting = LeasedAgents.leased(JDK, url).property("snowid.lease.waitForSlot", "30000")
                    .run(waited, "com.acme.legacy.LeasedApp", waited.toString(), "300");
            assertEquals(0, waiting.exitCode, waiting::toString);
            assertTrue(waiting.stderr.contains("every slot of the lease pool is held; waiting up to"), waiting::toString);
            assertTrue(a.waitFor(60, TimeUnit.SECONDS) && b.waitFor(60, TimeUnit.SECONDS));

            long[] aIds = IdsFile.read(dir.resolve("a"));
            long[] bIds = IdsFile.read(dir.resolve("b"));
            long[] waitedIds = IdsFile.read(waited);
            Slot slot = onlySlot(waitedIds);
            long[] previous = onlySlot(aIds).equals(slot) ? aIds : bIds;
            assertEquals(slot, onlySlot(previous), "the waiting JVM took one of the two slots once it was released");
            long previousLast = Arrays.stream(previous).map(id -> SnowflakeCodec.TWITTER.decode(id).unixMillis()).max().getAsLong();
            long waitedFirst = Arrays.stream(waitedIds).map(id -> SnowflakeCodec.TWITTER.decode(id).unixMillis()).min().getAsLong();
            assertTrue(waitedFirst > previousLast, "the slot's next holder starts after the previous one's last ID");
        }
    }

    private static Slot onlySlot(long[] ids) {
        List<Slot> slots = Arrays.stream(ids).mapToObj(id -> SnowflakeCodec.TWITTER.decode(id).slot()).distinct()
                .collect(Collectors.toList());
        assertEquals(1, slots.size(), "one JVM, one slot: " + slots);
        return slots.get(0);
    }

    private static long expiresAt(TestTable table, Slot slot) {
        return items(table).stream().filter(item -> Integer.parseInt(item.get("slot").n()) == slot.index())
                .mapToLong(item -> Long.parseLong(item.get("expiresAt").n())).findFirst().orElseThrow();
    }

    /** The slots' items: not the claims of the agents' request ids. */
    private static List<Map<String, AttributeValue>> items(TestTable table) {
        return table.client().scan(s -> s.tableName(table.name())).items().stream()
                .filter(item -> LeaseTableSchema.slotIndexOf(item.get(LeaseTableSchema.SLOT).n()).isPresent()).collect(Collectors.toList());
    }
}
