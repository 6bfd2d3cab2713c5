package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseExpiredException;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.testing.CountingLeaseStore;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Real threads through one {@link LeasedGenerator} while leases are renewed, lost and released
 * under them. The wall clock runs {@value #SPEED} times fast, so a 5 s lease needs renewing every
 * few dozen real milliseconds.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class LeasedGeneratorConcurrencyTest {

    private static final int SPEED = 1_000;
    private static final LeaseTerms TERMS = LeaseTerms.of(5_000, 250);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;
    private static final int THREADS = 6;
    private static final int PER_THREAD = 300_000;
    /** The longest any wait in these tests may take before it fails the test instead of hanging it. */
    private static final long WAIT_SECONDS = 90;

    /** Wall time, sped up; monotonic across threads. */
    private static final class FastClock implements WallClock {
        private final long start = System.currentTimeMillis();
        private final long startNanos = System.nanoTime();

        @Override
        public long millis() {
            return start + (System.nanoTime() - startNanos) * SPEED / 1_000_000;
        }
    }

    private final FastClock clock = new FastClock();
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final CountingLeaseStore counted = new CountingLeaseStore(table);
    private final AtomicLong issued = new AtomicLong();
    private final AtomicLong unavailable = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** When set, issuing threads wait at a third of their count until the test opens it: the theft then lands mid-run on a loaded machine too. */
    private volatile CountDownLatch gateAtAThird;

    @Test
    void noDuplicatesWhileRenewingAndAfterLosingTheSlotToAProcessWhoseClockIsAhead() throws Exception {
        LeasedGenerator generator = new LeasedGenerator(
                new PooledLeaseSource(counted, SlotPool.of(0, 0, 0, 1), TERMS, clock, "main"), TERMS, clock, CODEC);
        generator.nextId();
        Lease first = generator.currentLease().get();
        long[][] perThread = new long[THREADS][];
        gateAtAThird = new CountDownLatch(1);
        List<Thread> threads = startIssuing(generator, perThread, PER_THREAD);

        // A third of the way in, a process whose clock is two leases ahead sees our lease as
        // expired and takes the slot; it issues from it while our threads still do.
        awaitUntil(() -> issued.get() >= THREADS * (long) PER_THREAD / 3 || failure.get() != null, "a third of the IDs");
        long ahead = 2 * TERMS.leaseMillis();
        long thiefNow = clock.millis() + ahead;
        Lease stolen = table.newClient().tryAcquire(first.slot(), "feedfacefeedfacefeedfacefeedface", "thief",
                thiefNow, thiefNow + 3_600_000).get();
        gateAtAThird.countDown();
        SnowflakeGenerator thief = SnowflakeGenerator.forSlot(stolen.slot()).window(stolen.window())
                .clock(() -> clock.millis() + ahead).codec(CODEC).build();
        long[] thiefIds = new long[200_000];
        for (int i = 0; i < thiefIds.length; i++) {
            thiefIds[i] = thief.nextId();
        }
        join(threads);

        long[] all = merge(perThread, thiefIds);
        assertNoDuplicates(all);
        long fromLostSlot = 0;
        for (long[] ids : perThread) {
            for (long id : ids) {
                SnowflakeId decoded = CODEC.decode(id);
                if (decoded.slot().equals(stolen.slot())) {
                    fromLostSlot++;
                    assertTrue(decoded.unixMillis() < stolen.window().floor(),
                            "an ID from the lost slot at " + decoded.unixMillis() + ", after the thief's floor " + stolen.window().floor());
                }
            }
        }
        Lease last = generator.currentLease().get();
        System.out.printf("concurrency: %d IDs on %d threads + %d by the thief, %d from the lost slot; %d writes, %d scans, %d unavailable%n",
                THREADS * (long) PER_THREAD, THREADS, thiefIds.length, fromLostSlot, counted.writes(), counted.scans(), unavailable.get());
        assertTrue(fromLostSlot > 0 && fromLostSlot < THREADS * (long) PER_THREAD);
        assertTrue(!last.slot().equals(stolen.slot()), "moved to the other slot");
        assertTrue(counted.writes() - 2 >= 3, "renewals must have happened: " + counted.writes() + " writes for 2 acquisitions");
    }

    @Test
    void noDuplicatesWhileTwoProcessesHandOneSlotBackAndForthByRelease() throws Exception {
        SlotPool oneSlot = SlotPool.of(3, 3, 7, 7);
        // The other process: same clock, so any ID the main one issued after its release would
        // collide with the other's IDs of the same millisecond.
        LeasedGenerator other = new LeasedGenerator(
                new PooledLeaseSource(table.newClient(), oneSlot, TERMS, clock, "other"), TERMS, clock, CODEC);
        List<Long> otherIds = Collections.synchronizedList(new ArrayList<>());
        AtomicLong handovers = new AtomicLong();
        PooledLeaseSource pooled = new PooledLeaseSource(counted, oneSlot, TERMS, clock, "main");
        // Right after each release by the main process, while its threads wait for a new lease,
        // the other process takes the slot and issues; the main one gets it back once the other releases.
        LeaseSource handingOver = new LeaseSource() {
            @Override
            public Lease acquire() {
                return pooled.acquire();
            }

            @Override
            public Lease renew(Lease lease) {
                return pooled.renew(lease);
            }

            @Override
            public void release(Lease lease, long lastIssuedMillis) {
                pooled.release(lease, lastIssuedMillis);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
                while (clock.millis() <= lastIssuedMillis + 1) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("the clock did not pass the released expiry within " + WAIT_SECONDS + " s");
                    }
                    Thread.onSpinWait(); // the slot is free once now is past the released expiry
                }
                try {
                    for (long id : other.nextIds(4_096)) {
                        otherIds.add(id);
                    }
                    handovers.incrementAndGet();
                } catch (IdUnavailableException stalled) {
                    // A 5 s lease lasts 5 real ms here: a stall of the machine can cost the other
                    // process its lease or its skew check. No handover this time; uniqueness is still checked.
                }
            }
        };
        LeasedGenerator generator = new LeasedGenerator(handingOver, TERMS, clock, CODEC);
        long[][] perThread = new long[THREADS][];
        List<Thread> threads = startIssuing(generator, perThread, PER_THREAD);
        AtomicLong daemonRenewals = new AtomicLong();
        Thread daemon = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    if (generator.maintainLease()) {
                        daemonRenewals.incrementAndGet();
                    }
                    Thread.sleep(1);
                } catch (InterruptedException stop) {
                    return;
                } catch (LeaseLostException | IdUnavailableException tolerated) {
                    // a release raced with the renewal: the next request leases anew
                }
            }
        }, "renewer");
        daemon.start();
        Thread otherProcess = new Thread(() -> {
            int underThisLease = 0;
            while (threads.stream().anyMatch(Thread::isAlive)) {
                try {
                    otherIds.add(other.nextId());
                    if (++underThisLease == 20_000) {
                        other.release();
                        underThisLease = 0;
                    }
                } catch (IdUnavailableException held) {
                    Thread.yield();
                }
            }
        }, "other-process");
        otherProcess.start();
        for (int release = 1; release <= 5; release++) {
            long due = release * THREADS * (long) PER_THREAD / 6;
            awaitUntil(() -> issued.get() >= due || failure.get() != null || !threads.get(0).isAlive(), due + " IDs");
            try {
                generator.release();
            } catch (LeaseLostException stalledPastExpiry) {
                // The machine stalled past the 5 real ms of a lease and the other process took the slot:
                // release() says so, as documented; the IDs must still be unique.
            }
        }
        join(threads);
        daemon.interrupt();
        join(Arrays.asList(daemon, otherProcess));

        long[] others = otherIds.stream().mapToLong(Long::longValue).toArray();
        assertNoDuplicates(merge(perThread, others));
        System.out.printf("concurrency with releases: %d IDs on %d threads + %d by the other process; %d leases, %d daemon renewals,"
                + " %d unavailable, %d handovers%n", THREADS * (long) PER_THREAD, THREADS, others.length, table.row(Slot.of(3, 7)).get().fence,
                daemonRenewals.get(), unavailable.get(), handovers.get());
        assertTrue(handovers.get() >= 2, "the slot must have gone to the other process and back: " + handovers.get() + " handovers");
    }

    @Test
    void noLeaseOutlivesAShutdownThatRacesIssuingThreads() throws Exception {
        SlotPool pool = SlotPool.of(2, 2, 0, 3);
        LeasedGenerator generator = LeasedGenerator.builder(new PooledLeaseSource(counted, pool, TERMS, clock, "main"), TERMS, clock, CODEC)
                .renewInBackground()
                .build();
        List<Long> ids = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean(); // only for a failing run: threads that never see "shut down"
        List<Thread> threads = new ArrayList<>();
        // The owner's thread, as the client's renewer: the only one that leases and renews. It keeps
        // going through the shutdown, as a renewer might race the hook.
        Thread owner = new Thread(() -> {
            while (!stop.get()) {
                try {
                    generator.maintainLease();
                } catch (IdUnavailableException | LeaseLostException tolerated) {
                    // tried again on the next round
                }
                Thread.yield();
            }
        }, "owner");
        owner.start();
        threads.add(owner);
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                long[] mine = new long[PER_THREAD];
                int n = 0;
                try {
                    while (!stop.get()) {
                        try {
                            long id = generator.nextId();
                            if (n < mine.length) {
                                mine[n++] = id;
                            }
                            issued.incrementAndGet();
                        } catch (LeaseExpiredException e) {
                            if (e.getMessage().contains("shut down")) {
                                return; // the only way out: every thread keeps calling through the shutdown
                            }
                            unavailable.incrementAndGet();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    for (int i = 0; i < n; i++) {
                        ids.add(mine[i]);
                    }
                }
            }, "issuer-" + t);
            thread.start();
            threads.add(thread);
        }
        awaitUntil(() -> issued.get() >= 200_000 || failure.get() != null, "200,000 IDs before the shutdown");
        Slot slot = generator.currentLease().get().slot();
        generator.shutdown();
        for (Thread thread : threads.subList(1, threads.size())) {
            thread.join(30_000);
        }
        boolean stillIssuing = threads.subList(1, threads.size()).stream().anyMatch(Thread::isAlive);
        stop.set(true);
        join(threads);
        assertFalse(stillIssuing, "threads still got IDs 30 s after the shutdown");

        assertTrue(table.rows().values().stream().allMatch(row -> row.owner == null),
                () -> "a lease was taken after shutdown and never released: " + table.rows());
        long releasedExpiry = table.row(slot).get().expiresAt;
        long[] all = ids.stream().mapToLong(Long::longValue).toArray();
        assertNoDuplicates(all);
        for (long id : all) {
            assertTrue(CODEC.decode(id).unixMillis() < releasedExpiry, "an ID at or after the released expiry " + releasedExpiry);
        }
    }

    private List<Thread> startIssuing(LeasedGenerator generator, long[][] perThread, int count) {
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int number = t;
            Thread thread = new Thread(() -> {
                long[] ids = new long[count];
                try {
                    if (!go.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                        throw new AssertionError("never told to start");
                    }
                    int n = 0;
                    boolean gated = false;
                    while (n < count) {
                        CountDownLatch gate = gateAtAThird;
                        if (gate != null && !gated && n >= count / 3) {
                            gated = gate.await(1, TimeUnit.MINUTES);
                        }
                        try {
                            if (n % 7 == 0 && n + 16 <= count) {
                                for (long id : generator.nextIds(16)) {
                                    ids[n++] = id;
                                }
                                issued.addAndGet(16);
                            } else {
                                long id = generator.nextId(); // not ids[n++] = ...: n would move on a failure
                                ids[n++] = id;
                                issued.incrementAndGet();
                            }
                        } catch (IdUnavailableException retry) {
                            unavailable.incrementAndGet(); // the slot is held elsewhere for a while
                            Thread.yield();
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
                perThread[number] = ids;
            }, "issuer-" + t);
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        return threads;
    }

    /** Waits until {@code done}, failing the test (not hanging it) after {@link #WAIT_SECONDS}. */
    private static void awaitUntil(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("waited " + WAIT_SECONDS + " s for " + what);
            }
            Thread.sleep(1);
        }
    }

    /** Joins every thread, failing the test when one is still running after {@link #WAIT_SECONDS} in all. */
    private void join(List<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (thread.isAlive()) {
                fail(thread.getName() + " still runs after " + WAIT_SECONDS + " s", failure.get());
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("an issuing thread failed", failure.get());
        }
    }

    private static long[] merge(long[][] perThread, long[]... more) {
        int size = 0;
        for (long[] ids : perThread) {
            size += ids.length;
        }
        for (long[] ids : more) {
            size += ids.length;
        }
        long[] all = new long[size];
        int at = 0;
        for (long[] ids : perThread) {
            System.arraycopy(ids, 0, all, at, ids.length);
            at += ids.length;
        }
        for (long[] ids : more) {
            System.arraycopy(ids, 0, all, at, ids.length);
            at += ids.length;
        }
        return all;
    }

    private static void assertNoDuplicates(long[] ids) {
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        int duplicates = 0;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                duplicates++;
            }
        }
        assertEquals(0, duplicates, "duplicate IDs among " + sorted.length);
        assertTrue(sorted[0] > 0);
    }
}
