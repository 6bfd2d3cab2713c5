package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.lambda.engine.DynamoDbEngine;
import dev.snowid.lambda.engine.TestTable;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lease mode against the real lease API: the function's local runner (the same handler as on
 * Lambda) on a real DynamoDB-compatible engine, with agent JVMs as child processes. The pool
 * has two slots and leases last 5 s, the shortest the function allows.
 */
@ExtendWith(DynamoDbEngine.class)
class AgentLeaseIT {

    static final String SECRET = "agent-lease-it-secret";
    static final long LEASE_MILLIS = 5_000;
    static final int DATACENTER = 9;
    static final String TARGET = "com.acme.legacy.LegacyIds#nextLong";

    @TempDir
    Path dir;

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void twoJvmsGetTwoSlotsAndAKilledOnesSlotIsReusedAfterExpiryWithoutOverlap(Jdk jdk, TestTable table) throws Exception {
        try (LocalRunner api = LocalRunner.start(functionEnvironment(table))) {
            Process killed = leased(jdk, api).start(dir.resolve("a"), "com.acme.legacy.LeasedApp", dir.resolve("a").toString(), "0");
            Process graceful = leased(jdk, api).start(dir.resolve("b"), "com.acme.legacy.LeasedApp", dir.resolve("b").toString(), "4000");
            awaitIds(dir.resolve("a"), killed);
            awaitIds(dir.resolve("b"), graceful);

            killed.destroyForcibly(); // kill -9: no shutdown hook, no release; the lease must run out
            assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, graceful.waitFor(60, TimeUnit.SECONDS) ? graceful.exitValue() : -1,
                    () -> "the graceful JVM failed:\n" + output(dir.resolve("b")));
            assertTrue(ChildJvm.Result.read(dir.resolve("b"), ".err").contains("\"audit\":\"lease\",\"event\":\"released\""),
                    () -> output(dir.resolve("b")));

            long[] a = IdsFile.read(dir.resolve("a"));
            long[] b = IdsFile.read(dir.resolve("b"));
            Slot slotA = onlySlot(a);
            Slot slotB = onlySlot(b);
            assertNotEquals(slotA, slotB, "two live JVMs must hold two slots");

            // The released slot is free at once, the killed JVM's once its lease has run out. C holds one of
            // them while D keeps starting until the other is free (D fails at start-up while none is).
            Process c = leased(jdk, api).start(dir.resolve("c"), "com.acme.legacy.LeasedApp", dir.resolve("c").toString(), "12000");
            awaitIds(dir.resolve("c"), c);
            ChildJvm.Result d = runUntilLeased(jdk, api, "d");
            assertEquals(0, c.waitFor(60, TimeUnit.SECONDS) ? c.exitValue() : -1, () -> "C failed:\n" + output(dir.resolve("c")));
            long[] cIds = IdsFile.read(dir.resolve("c"));
            long[] dIds = IdsFile.read(dir.resolve("d"));
            Map<Slot, long[]> after = new HashMap<>();
            after.put(onlySlot(cIds), cIds);
            after.put(onlySlot(dIds), dIds);
            assertEquals(new HashSet<>(Arrays.asList(slotA, slotB)), after.keySet(),
                    () -> "the next two holders took over the pool's two slots\n" + output(dir.resolve("c")) + d);

            assertStrictlyAfter(a, after.get(slotA), "the killed JVM's slot");
            assertStrictlyAfter(b, after.get(slotB), "the released slot");
            AgentRedirectIT.assertUnique(concat(a, b, cIds, dIds));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void stopsIssuingWhenRenewalsFailPastTheLease(Jdk jdk, TestTable table) throws Exception {
        Process app;
        long apiDownAt;
        try (LocalRunner api = LocalRunner.start(functionEnvironment(table))) {
            app = leased(jdk, api).start(dir.resolve("e"), "com.acme.legacy.LeasedApp", dir.resolve("e").toString(), "0");
            awaitIds(dir.resolve("e"), app);
            apiDownAt = System.currentTimeMillis();
        }
        // No renewal can be confirmed any more: the app must be refused within one lease, never keep issuing.
        if (!app.waitFor(LEASE_MILLIS * 4, TimeUnit.MILLISECONDS)) {
            app.destroyForcibly().waitFor();
            fail("the agent kept issuing IDs with the lease API down:\n" + output(dir.resolve("e")));
        }
        String stdout = ChildJvm.Result.read(dir.resolve("e"), ".out");
        assertEquals(3, app.exitValue(), () -> output(dir.resolve("e")));
        assertTrue(stdout.contains("UNAVAILABLE LeaseStoreUnavailableException: ") || stdout.contains("UNAVAILABLE LeaseExpiredException: "),
                () -> output(dir.resolve("e")));
        long[] ids = IdsFile.read(dir.resolve("e"));
        for (long id : ids) {
            long at = SnowflakeCodec.TWITTER.decode(id).unixMillis();
            assertTrue(at < apiDownAt + LEASE_MILLIS, "ID " + id + " issued at " + at + ", after the last possible lease expiry "
                    + (apiDownAt + LEASE_MILLIS));
        }
    }

    private ChildJvm leased(Jdk jdk, LocalRunner api) {
        return ChildJvm.on(jdk)
                .property("snowid.lease.url", api.baseUri().toString())
                .property("snowid.targets", TARGET)
                .env("SNOWID_LEASE_SECRET", SECRET);
    }

    /** Starts a short-lived leased JVM until the pool has a slot for it (bounded by three lease durations). */
    private ChildJvm.Result runUntilLeased(Jdk jdk, LocalRunner api, String name) throws Exception {
        long deadline = System.currentTimeMillis() + 3 * LEASE_MILLIS;
        while (true) {
            Path ids = dir.resolve(name);
            Files.deleteIfExists(ids);
            ChildJvm.Result result = leased(jdk, api).run(ids, "com.acme.legacy.LeasedApp", ids.toString(), "500");
            if (result.exitCode == 0) {
                return result;
            }
            assertTrue(result.stderr.contains("no free slot"), result::toString);
            if (System.currentTimeMillis() > deadline) {
                fail("no slot became free within " + 3 * LEASE_MILLIS + " ms after the killed JVM's lease:\n" + result);
            }
        }
    }

    static Map<String, String> functionEnvironment(TestTable table) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put("SNOWID_LEASE_MILLIS", Long.toString(LEASE_MILLIS));
        env.put("SNOWID_MAX_CLOCK_SKEW_MILLIS", "250"); // the most a 5 s lease allows: one machine, one clock
        env.put("SNOWID_DATACENTERS", Integer.toString(DATACENTER));
        env.put("SNOWID_MACHINES", "0-1");
        return env;
    }

    static void awaitIds(Path ids, Process process) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(ids) || Files.size(ids) < 8 * 1000) {
            if (!process.isAlive() || System.currentTimeMillis() > deadline) {
                fail("no IDs from the leased JVM:\n" + output(ids));
            }
            Thread.sleep(20);
        }
    }

    private static Slot onlySlot(long[] ids) {
        assertTrue(ids.length > 0, "no IDs");
        Set<Slot> slots = new HashSet<>();
        for (long id : ids) {
            slots.add(SnowflakeCodec.TWITTER.decode(id).slot());
        }
        assertEquals(1, slots.size(), "one JVM, one slot: " + slots);
        Slot slot = slots.iterator().next();
        assertEquals(DATACENTER, slot.datacenter(), "a slot from the function's pool: " + slot);
        return slot;
    }

    private static void assertStrictlyAfter(long[] before, long[] after, String what) {
        long lastBefore = Arrays.stream(before).map(id -> SnowflakeCodec.TWITTER.decode(id).unixMillis()).max().getAsLong();
        long firstAfter = Arrays.stream(after).map(id -> SnowflakeCodec.TWITTER.decode(id).unixMillis()).min().getAsLong();
        assertTrue(firstAfter > lastBefore, what + ": the next holder's first ID (" + firstAfter
                + ") must come after the previous holder's last (" + lastBefore + ")");
    }

    private static long[] concat(long[]... parts) {
        return Arrays.stream(parts).flatMapToLong(Arrays::stream).toArray();
    }

    static String output(Path run) {
        try {
            return "--- stdout ---\n" + ChildJvm.Result.read(run, ".out") + "--- stderr ---\n" + ChildJvm.Result.read(run, ".err");
        } catch (IOException e) {
            return e.toString();
        }
    }
}
