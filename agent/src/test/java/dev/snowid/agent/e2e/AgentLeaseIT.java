package dev.snowid.agent.e2e;

import static dev.snowid.testing.leaseapi.LeaseApi.LEASE_MILLIS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lease mode against the real lease API: the function's local runner (the same handler as on
 * Lambda) on a real DynamoDB-compatible engine, with agent JVMs as child processes. The pool
 * has two slots and leases last 5 s, the shortest the function allows.
 */
@ExtendWith(DynamoDbEngine.class)
class AgentLeaseIT {

    static final int DATACENTER = 9;

    @TempDir
    Path dir;

    @OnEveryJdk
    void twoJvmsGetTwoSlotsAndAKilledOnesSlotIsReusedAfterExpiryWithoutOverlap(Jdk jdk, TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, DATACENTER)) {
            Process killed = LeasedAgents.leased(jdk, api.baseUri().toString()).start(dir.resolve("a"), "com.acme.legacy.LeasedApp", dir.resolve("a").toString(), "0");
            // Audit lines are printed only when asked for: the one switch.
            Process graceful = LeasedAgents.leased(jdk, api.baseUri().toString()).property("snowid.lease.auditAtInfo", "true").start(dir.resolve("b"), "com.acme.legacy.LeasedApp", dir.resolve("b").toString(), "4000");
            ChildJvm.awaitIds(dir.resolve("a"), killed, 1000);
            ChildJvm.awaitIds(dir.resolve("b"), graceful, 1000);

            killed.destroyForcibly(); // kill -9: no shutdown hook, no release; the lease must run out
            assertTrue(killed.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, graceful.waitFor(60, TimeUnit.SECONDS) ? graceful.exitValue() : -1,
                    () -> "the graceful JVM failed:\n" + ChildJvm.output(dir.resolve("b")));
            assertTrue(ChildJvm.Result.read(dir.resolve("b"), ".err").contains("\"audit\":\"lease\",\"event\":\"released\""),
                    () -> ChildJvm.output(dir.resolve("b")));
            assertFalse(ChildJvm.Result.read(dir.resolve("a"), ".err").contains("\"audit\":\"lease\""),
                    () -> "no audit line by default:\n" + ChildJvm.output(dir.resolve("a")));
            String started = ChildJvm.Result.read(dir.resolve("a"), ".err");
            // Up to the start line's own "[snowid] " prefix: every line of the agent's before it, and that one.
            long startUpLines = started.substring(0, Math.max(0, started.indexOf(" started in "))).lines()
                    .filter(line -> line.contains("[snowid] ")).count();
            assertTrue(started.contains(" started in ") && startUpLines <= 2,
                    () -> "at most 2 lines at start-up, the lease and the start:\n" + ChildJvm.output(dir.resolve("a")));

            long[] a = IdsFile.read(dir.resolve("a"));
            long[] b = IdsFile.read(dir.resolve("b"));
            Slot slotA = onlySlot(a);
            Slot slotB = onlySlot(b);
            assertNotEquals(slotA, slotB, "two live JVMs must hold two slots");

            // The released slot is free at once, the killed JVM's once its lease has run out. C holds one of
            // them while D keeps starting until the other is free (D fails at start-up while none is).
            Process c = LeasedAgents.leased(jdk, api.baseUri().toString()).start(dir.resolve("c"), "com.acme.legacy.LeasedApp", dir.resolve("c").toString(), "12000");
            ChildJvm.awaitIds(dir.resolve("c"), c, 1000);
            ChildJvm.Result d = runUntilLeased(jdk, api, "d");
            assertEquals(0, c.waitFor(60, TimeUnit.SECONDS) ? c.exitValue() : -1, () -> "C failed:\n" + ChildJvm.output(dir.resolve("c")));
            long[] cIds = IdsFile.read(dir.resolve("c"));
            long[] dIds = IdsFile.read(dir.resolve("d"));
            Map<Slot, long[]> after = new HashMap<>();
            after.put(onlySlot(cIds), cIds);
            after.put(onlySlot(dIds), dIds);
            assertEquals(new HashSet<>(Arrays.asList(slotA, slotB)), after.keySet(),
                    () -> "the next two holders took over the pool's two slots\n" + ChildJvm.output(dir.resolve("c")) + d);

            assertStrictlyAfter(a, after.get(slotA), "the killed JVM's slot");
            assertStrictlyAfter(b, after.get(slotB), "the released slot");
            AgentRedirectIT.assertUnique(concat(a, b, cIds, dIds));
        }
    }

    @OnEveryJdk
    void stopsIssuingWhenRenewalsFailPastTheLease(Jdk jdk, TestTable table) throws Exception {
        Process app;
        long apiDownAt;
        try (LeaseApi api = LeasedAgents.api(table, DATACENTER)) {
            app = LeasedAgents.leased(jdk, api.baseUri().toString()).start(dir.resolve("e"), "com.acme.legacy.LeasedApp", dir.resolve("e").toString(), "0");
            ChildJvm.awaitIds(dir.resolve("e"), app, 1000);
            apiDownAt = System.currentTimeMillis();
        }
        // No renewal can be confirmed any more: the app must be refused within one lease, never keep issuing.
        if (!app.waitFor(LEASE_MILLIS * 4, TimeUnit.MILLISECONDS)) {
            app.destroyForcibly().waitFor();
            fail("the agent kept issuing IDs with the lease API down:\n" + ChildJvm.output(dir.resolve("e")));
        }
        String stdout = ChildJvm.Result.read(dir.resolve("e"), ".out");
        assertEquals(3, app.exitValue(), () -> ChildJvm.output(dir.resolve("e")));
        assertTrue(stdout.contains("UNAVAILABLE LeaseStoreUnavailableException: ") || stdout.contains("UNAVAILABLE LeaseExpiredException: "),
                () -> ChildJvm.output(dir.resolve("e")));
        long[] ids = IdsFile.read(dir.resolve("e"));
        for (long id : ids) {
            long at = SnowflakeCodec.TWITTER.decode(id).unixMillis();
            assertTrue(at < apiDownAt + LEASE_MILLIS, "ID " + id + " issued at " + at + ", after the last possible lease expiry "
                    + (apiDownAt + LEASE_MILLIS));
        }
    }

    /** Starts a short-lived leased JVM until the pool has a slot for it (bounded by three lease durations). */
    private ChildJvm.Result runUntilLeased(Jdk jdk, LeaseApi api, String name) {
        Path ids = dir.resolve(name);
        // In the test's thread: a run that has begun ends before the deadline is checked, as a JVM is not interrupted.
        return await("a slot free within " + 3 * LEASE_MILLIS + " ms after the killed JVM's lease")
                .atMost(Duration.ofMillis(3 * LEASE_MILLIS)).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(10))
                .until(() -> {
                    Files.deleteIfExists(ids);
                    ChildJvm.Result result = LeasedAgents.leased(jdk, api.baseUri().toString()).run(ids, "com.acme.legacy.LeasedApp", ids.toString(), "500");
                    assertTrue(result.exitCode == 0 || result.stderr.contains("no free slot"), result::toString);
                    return result;
                }, result -> result.exitCode == 0);
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

}
