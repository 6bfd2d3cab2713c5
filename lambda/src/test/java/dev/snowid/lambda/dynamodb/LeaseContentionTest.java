package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Many acquirers, each with its own SDK client (as separate Lambda environments are), race for
 * a small pool over several rounds, on real threads. Every slot is granted to exactly one of
 * them per round, fences follow one another, and each holder's window starts where the
 * previous one ended (at its expiry, or after the last ID it issued when it released).
 */
@OnEveryEngine(racesWriters = true)
class LeaseContentionTest {

    private static final int ACQUIRERS = 256;
    private static final int POOL = 8;
    private static final int ROUNDS = 3;
    private static final long BASE = 1_700_000_000_000L;
    private static final long LEASE_MILLIS = 50_000;
    private static final long ISSUED_AFTER_START = 7;

    private record Grant(int acquirer, Lease lease) {
    }

    private static ExecutorService threads;
    /** Per engine: one table and one store (with its own SDK client) per acquirer, shared by the tests: each uses its own datacenter. */
    private static final Map<String, List<DynamoDbLeaseStore>> acquirersByEngine = new HashMap<>();

    private final List<DynamoDbLeaseStore> stores;

    LeaseContentionTest(DynamoDbEngine.Running engine) throws Exception {
        List<DynamoDbLeaseStore> existing = acquirersByEngine.get(engine.name());
        stores = existing != null ? existing : acquirers(engine.newTable("contention"));
        acquirersByEngine.put(engine.name(), stores);
    }

    @BeforeAll
    static void startThreads() {
        threads = Executors.newFixedThreadPool(ACQUIRERS);
    }

    @AfterAll
    static void closeAcquirers() {
        threads.shutdownNow();
        acquirersByEngine.values().forEach(stores -> stores.forEach(DynamoDbLeaseStore::close));
        acquirersByEngine.clear();
    }

    private static List<DynamoDbLeaseStore> acquirers(TestTable table) throws Exception {
        List<Callable<DynamoDbLeaseStore>> clients = Collections.nCopies(ACQUIRERS, () -> DynamoDbLeaseStore.builder()
                .table(table.name())
                // Generous: 256 connections at once on two busy cores must not turn into timeouts. A timed-out
                // attempt drops its half-sent request, and that makes dynalite 4.0.0 exit.
                .client(TestStores.clientSettings(table).attemptTimeout(Duration.ofSeconds(20)))
                .build());
        List<DynamoDbLeaseStore> stores = new ArrayList<>();
        for (Future<DynamoDbLeaseStore> store : threads.invokeAll(clients)) {
            stores.add(store.get());
        }
        return stores;
    }

    @Test
    void everySlotGoesToExactlyOneAcquirerPerRound() throws Exception {
        List<Slot> pool = IntStream.range(0, POOL).mapToObj(machine -> Slot.of(0, machine)).toList();
        Map<Slot, Long> expectedFloor = new HashMap<>();
        pool.forEach(slot -> expectedFloor.put(slot, 0L));
        Map<Slot, Long> expectedFence = new HashMap<>();
        pool.forEach(slot -> expectedFence.put(slot, 1L));

        for (int round = 0; round < ROUNDS; round++) {
            long now = BASE + round * 2 * LEASE_MILLIS;
            List<Grant> grants = race(pool, now, round);

            assertEquals(POOL, grants.size(), "grants in round " + round + ": " + grants);
            Set<Slot> granted = new HashSet<>();
            for (Grant grant : grants) {
                Lease lease = grant.lease();
                assertTrue(granted.add(lease.slot()), "slot " + lease.slot() + " granted twice in round " + round);
                assertEquals(expectedFence.get(lease.slot()), lease.fence(), "fence of " + lease.slot());
                assertEquals(LeaseWindow.of(expectedFloor.get(lease.slot()), now + LEASE_MILLIS), lease.window(),
                        "window of " + lease.slot() + " in round " + round);
                expectedFence.merge(lease.slot(), 1L, Long::sum);
                // Holders of even machines release after issuing at now + 7; the others let the lease run out.
                if (lease.slot().machine() % 2 == 0) {
                    stores.get(grant.acquirer()).release(lease.slot(), lease.owner(), lease.fence(), now + ISSUED_AFTER_START);
                    expectedFloor.put(lease.slot(), now + ISSUED_AFTER_START + 1);
                } else {
                    expectedFloor.put(lease.slot(), now + LEASE_MILLIS);
                }
            }
        }
    }

    /**
     * The same race through {@link PooledLeaseSource} (probe, Scan, a few writes): the pool's
     * slots go to exactly that many acquirers, every other one gets {@link NoFreeSlotException}
     * promptly, never a wait without end; after the winners release, a second wave starts after
     * their last IDs.
     */
    @Test
    void throughThePoolTheLosersGetNoFreeSlotAndReleasedSlotsAreTakenAgain() throws Exception {
        SlotPool pool = SlotPool.of(1, 1, 0, POOL - 1);
        long lastIssued = System.currentTimeMillis();
        List<Lease> first = wave(pool);
        Set<Slot> granted = new HashSet<>();
        first.forEach(lease -> assertTrue(granted.add(lease.slot()), "slot granted twice: " + first));
        assertEquals(new HashSet<>(pool.slots()), granted);
        for (Lease lease : first) {
            stores.get(0).release(lease.slot(), lease.owner(), lease.fence(), lastIssued);
        }

        List<Lease> second = wave(pool);
        assertEquals(POOL, second.stream().map(Lease::slot).distinct().count(), "second wave: " + second);
        second.forEach(lease -> assertEquals(lastIssued + 1, lease.window().floor(), "floor after the last issued ms: " + lease));
        second.forEach(lease -> assertEquals(2, lease.fence()));
    }

    private List<Lease> wave(SlotPool pool) throws Exception {
        CyclicBarrier start = new CyclicBarrier(ACQUIRERS);
        List<Future<Optional<Lease>>> outcomes = new ArrayList<>();
        for (DynamoDbLeaseStore store : stores) {
            PooledLeaseSource source = new PooledLeaseSource(store, pool, LeaseTerms.DEFAULT, WallClock.SYSTEM, "wave");
            outcomes.add(threads.submit(() -> {
                start.await(30, TimeUnit.SECONDS);
                try {
                    return Optional.of(source.acquire());
                } catch (NoFreeSlotException exhausted) {
                    assertTrue(exhausted.retryAfterMillis() > 0, exhausted.getMessage());
                    return Optional.<Lease>empty();
                }
            }));
        }
        List<Lease> leases = new ArrayList<>();
        for (Future<Optional<Lease>> outcome : outcomes) {
            outcome.get(60, TimeUnit.SECONDS).ifPresent(leases::add);
        }
        return leases;
    }

    /** All acquirers start together; each tries the pool in its own random order until a grant or the end. */
    private List<Grant> race(List<Slot> pool, long now, int round)
            throws Exception {
        CyclicBarrier start = new CyclicBarrier(ACQUIRERS);
        List<Future<Optional<Grant>>> outcomes = new ArrayList<>();
        for (int i = 0; i < ACQUIRERS; i++) {
            int acquirer = i;
            outcomes.add(threads.submit(() -> {
                List<Slot> order = new ArrayList<>(pool);
                Collections.shuffle(order, new Random(acquirer * 31L + round));
                String owner = "round" + round + "-acquirer" + acquirer;
                start.await(30, TimeUnit.SECONDS);
                for (Slot slot : order) {
                    Optional<Lease> lease = stores.get(acquirer).tryAcquire(slot, owner, owner, now, now + LEASE_MILLIS);
                    if (lease.isPresent()) {
                        return Optional.of(new Grant(acquirer, lease.get()));
                    }
                }
                return Optional.<Grant>empty();
            }));
        }
        List<Grant> grants = new ArrayList<>();
        for (Future<Optional<Grant>> outcome : outcomes) {
            outcome.get(60, TimeUnit.SECONDS).ifPresent(grants::add);
        }
        return grants;
    }
}
