package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.protocol.LeaseFields;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * Lambda Managed Instances: one execution environment serves many requests at once, on threads of
 * one JVM. 64 threads invoke ONE handler through two renewals and one lost lease, on a one-slot
 * pool: one lease at a time, every ID inside a window the store confirmed to this environment, a
 * 503 and no ID while another holder has the slot, and no duplicate among the environment's IDs
 * and the other holder's. The clock is moved by hand (a 5 s lease, renewals due at once), so the
 * test takes seconds, not leases.
 */
@OnEveryEngine
class ManagedInstancesConcurrencyTest {

    private static final int THREADS = 64;
    private static final int IDS_PER_REQUEST = 50;
    private static final long LEASE_MILLIS = 5_000;
    /** The other holder's: long enough that it keeps the slot however slowly a loaded machine refuses requests meanwhile. */
    private static final LeaseTerms OTHER_TERMS = LeaseTerms.of(60_000, 250);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;
    /** Every wait of this test ends by then. */
    private static final long WAIT_MILLIS = 20_000;

    private final AtomicLong offset = new AtomicLong();
    private final WallClock clock = () -> System.currentTimeMillis() + offset.get();
    private final AuditSink sink = new AuditSink();
    /** Workers hold it shared per invocation; the test holds it alone to play the takeover between invocations. */
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock(true);
    private final ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
    private final AtomicInteger refused = new AtomicInteger();
    private final AtomicInteger issuedWhileTakenOver = new AtomicInteger();
    private final List<String> unexpected = new CopyOnWriteArrayList<>();
    private volatile boolean takenOver;
    private volatile boolean stop;

    @Test
    void sixtyFourThreadsShareOneLeaseThroughRenewalsAndALossWithoutADuplicate(TestTable table) throws Exception {
        FunctionSettings settings = FunctionSettings.from(Functions.environment(table, FunctionSettings.DATACENTERS, "2",
                FunctionSettings.MACHINES, "5", FunctionSettings.LEASE_MILLIS, Long.toString(LEASE_MILLIS),
                FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250"));
        List<Long> otherHoldersIds = new ArrayList<>();
        // The store compares its Date header with the real clock; the test moves the environment's.
        try (DynamoDbLeaseStore other = TestStores.store(table, WallClock.SYSTEM);
                SnowidHandler handler = SnowidHandler.builder(settings).store(TestStores.store(table, WallClock.SYSTEM)).clock(clock)
                        .logTo(new PrintStream(sink, true, StandardCharsets.UTF_8)).build()) {
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                Thread worker = new Thread(() -> invokeUntilStopped(handler), "invocation-" + i);
                worker.start();
                workers.add(worker);
            }
            try {
                awaitIds(20_000);
                assertEquals(1, sink.count("granted"), sink.events().toString());

                for (int renewal = 1; renewal <= 2; renewal++) {
                    offset.addAndGet(LEASE_MILLIS * 6 / 10); // less than half left: due
                    int renewed = renewal;
                    await("renewal " + renewal, () -> sink.count("renewed") >= renewed);
                    awaitIds(ids.size() + 20_000);
                }

                // The environment stalls past its window (between invocations), and another holder takes the slot.
                LeasedGenerator otherHolder = new LeasedGenerator(
                        new PooledLeaseSource(other, SlotPool.of(2, 2, 5, 5), OTHER_TERMS, clock, "the other holder"), OTHER_TERMS, clock, CODEC);
                if (!gate.writeLock().tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    fail("the invocations in flight did not end in time");
                }
                try {
                    offset.addAndGet(LEASE_MILLIS + 1_000);
                    for (int i = 0; i < 1_000; i++) {
                        otherHoldersIds.add(otherHolder.nextId());
                    }
                    takenOver = true;
                } finally {
                    gate.writeLock().unlock();
                }
                await("the loss, seen by a renewal", () -> sink.count("lost") == 1);
                int refusedAfterLoss = refused.get();
                await("refusals while the other holder has the slot", () -> refused.get() >= refusedAfterLoss + THREADS);
                for (int i = 0; i < 1_000; i++) {
                    otherHoldersIds.add(otherHolder.nextId());
                }

                if (!gate.writeLock().tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    fail("the invocations in flight did not end in time");
                }
                try {
                    takenOver = false;
                    otherHolder.release(); // with its last issued ms: the environment's next window starts after it
                } finally {
                    gate.writeLock().unlock();
                }
                await("a new lease", () -> sink.count("granted") == 2);
                awaitIds(ids.size() + 20_000);
            } finally {
                stop = true;
                for (Thread worker : workers) {
                    worker.join(WAIT_MILLIS);
                    assertTrue(!worker.isAlive(), worker.getName() + " did not stop");
                }
            }
        }

        assertEquals(List.of(), unexpected, "only 200s, and 503s while the lease is lost");
        assertEquals(0, issuedWhileTakenOver.get(), "no ID while another holder had the slot");
        List<Window> windows = sink.windows();
        assertEquals(List.of("granted", "renewed", "renewed", "lost", "granted"), sink.events().subList(0, 5), sink.events().toString());
        assertOneLeaseAtATime(sink.events());
        Set<Long> distinct = new HashSet<>(otherHoldersIds);
        int total = otherHoldersIds.size();
        for (long id : ids) {
            distinct.add(id);
            total++;
            long at = CODEC.decode(id).unixMillis();
            assertTrue(windows.stream().anyMatch(w -> w.contains(at)), "ID at " + at + " outside every confirmed window " + windows);
        }
        assertTrue(ids.size() >= 80_000, "a large count: " + ids.size());
        assertEquals(total, distinct.size(), "duplicates among " + total + " IDs");
        assertEquals(2, sink.acquiredRequests.get(), "each grant counted in the one request that made it, not in a concurrent one");
    }

    private void invokeUntilStopped(SnowidHandler handler) {
        String event = TestEvents.get("/ids").query("count=" + IDS_PER_REQUEST).v2();
        long deadline = System.currentTimeMillis() + 4 * WAIT_MILLIS;
        while (!stop && System.currentTimeMillis() < deadline) {
            try {
                if (!gate.readLock().tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                    unexpected.add("gate not opened in time");
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                Invocation answer = Invocation.of(handler, event);
                if (answer.status() == 200) {
                    List<String> issued = answer.ids();
                    if (takenOver) {
                        issuedWhileTakenOver.addAndGet(issued.size());
                    }
                    issued.forEach(id -> ids.add(Long.parseLong(id)));
                } else if (answer.status() == 503) {
                    refused.incrementAndGet();
                } else {
                    unexpected.add(answer.toString());
                }
            } catch (RuntimeException e) {
                unexpected.add(e.toString());
            } finally {
                gate.readLock().unlock();
            }
        }
    }

    private void awaitIds(int atLeast) throws InterruptedException {
        await(atLeast + " IDs", () -> ids.size() >= atLeast);
    }

    private void await(String what, BooleanSupplier done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (!done.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline || !unexpected.isEmpty()) {
                fail("waited in vain for " + what + "; lease events " + sink.events() + ", unexpected " + unexpected);
            }
            Thread.sleep(10);
        }
    }

    /** Never a grant while a lease is held: each grant follows the loss or release of the one before. */
    private static void assertOneLeaseAtATime(List<String> events) {
        int held = 0;
        for (String event : events) {
            switch (event) {
                case "granted" -> held++;
                case "lost", "released" -> held--;
                default -> {
                }
            }
            assertTrue(held <= 1 && held >= 0, "one lease at a time: " + events);
        }
    }

    /** A confirmed window of this environment, as its audit lines give it. */
    record Window(long floor, long expiresAt) {
        boolean contains(long millis) {
            return millis >= floor && millis < expiresAt;
        }
    }

    /** Keeps the leases' audit lines and counts the request lines that acquired; lets the rest go. */
    private static final class AuditSink extends OutputStream {
        private final List<JsonNode> audit = new CopyOnWriteArrayList<>();
        final AtomicInteger acquiredRequests = new AtomicInteger();

        @Override
        public void write(byte[] bytes, int off, int len) {
            String text = new String(bytes, off, len, StandardCharsets.UTF_8);
            for (String line : text.split("\n")) {
                if (line.contains("\"audit\":\"lease\"")) {
                    audit.add(JsonNode.parser().parse(line));
                } else if (line.contains("\"lease_acquired\":true")) {
                    acquiredRequests.incrementAndGet();
                }
            }
        }

        @Override
        public void write(int b) {
            throw new UnsupportedOperationException("the handler writes whole lines");
        }

        List<String> events() {
            return audit.stream().map(line -> line.field("event").orElseThrow().text()).toList();
        }

        int count(String event) {
            return (int) events().stream().filter(event::equals).count();
        }

        /** Per fence, from the floor granted to the latest expiry confirmed. */
        List<Window> windows() {
            List<Window> windows = new ArrayList<>();
            long fence = -1;
            for (JsonNode line : audit) {
                String event = line.field("event").orElseThrow().text();
                if (!event.equals("granted") && !event.equals("renewed")) {
                    continue;
                }
                long floor = Long.parseLong(line.field(LeaseFields.FLOOR).orElseThrow().asNumber());
                long expiresAt = Long.parseLong(line.field(LeaseFields.EXPIRES_AT).orElseThrow().asNumber());
                long thisFence = Long.parseLong(line.field(LeaseFields.FENCE).orElseThrow().asNumber());
                if (thisFence == fence && !windows.isEmpty()) {
                    windows.set(windows.size() - 1, new Window(windows.get(windows.size() - 1).floor(), expiresAt));
                } else {
                    windows.add(new Window(floor, expiresAt));
                }
                fence = thisFence;
            }
            return windows;
        }
    }
}
