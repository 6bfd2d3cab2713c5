package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseExpiredException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.testing.CountingLeaseStore;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A holder whose clock disagrees with its lease source's, and one whose source hangs: it never
 * holds two slots, gives back what it cannot use, renews at a bounded rate, and its callers never
 * wait on the source. The source here is blind to the skew (its store reports none), so the
 * generator's own rules are what is tested; the skew the source does measure is tested too.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class LeasedGeneratorClockTest {

    private static final long T = 1_700_000_000_000L;
    private static final LeaseTerms TERMS = LeaseTerms.of(5_000, 250);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;
    private static final SlotPool POOL = SlotPool.of(2, 2, 0, 3);

    /** The store's clock (and the source's, which computes expiries with it). */
    private final ManualClock truth = new ManualClock(T);
    private final AtomicLong aheadMillis = new AtomicLong();
    /** The holder's clock: the store's plus {@link #aheadMillis}. */
    private final WallClock holderClock = () -> truth.millis() + aheadMillis.get();
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final CountingLeaseStore counted = new CountingLeaseStore(table);
    private final PooledLeaseSource source = new PooledLeaseSource(counted, POOL, TERMS, truth, "holder");
    private final List<String> events = new ArrayList<>();

    private LeasedGeneratorBuilder generator(LeaseSource leases) {
        return LeasedGenerator.builder(leases, TERMS, holderClock, CODEC).events(new Recorder(events));
    }

    private long ownedSlots() {
        return table.rows().values().stream().filter(row -> row.owner != null).count();
    }

    private long slotsEverLeased() {
        return table.rows().size();
    }

    @Test
    void aClockAheadByMoreThanTheLeaseTakesOneSlotGivesItBackAndTakesNoOtherForAWhile() {
        aheadMillis.set(7_000); // the fleet test's +7 s with 5 s leases
        LeasedGenerator generator = generator(source).build();

        ClockSkewException refused = assertThrows(ClockSkewException.class, generator::nextId);
        assertTrue(refused.getMessage().contains("already past the end of the lease on slot")
                && refused.getMessage().contains("by 2000 ms"), refused.getMessage());
        for (int call = 0; call < 20; call++) {
            IdUnavailableException again = assertThrows(IdUnavailableException.class, generator::nextId);
            assertTrue(again.getMessage().contains("given back"), again.getMessage());
        }
        assertEquals(1, slotsEverLeased(), "one slot taken, not one per call: " + table.rows());
        assertEquals(0, ownedSlots(), "and given back: " + table.rows());
        assertEquals(List.of("granted fence 1", "released fence 1"), withoutReasons(events));

        truth.advance(refused.retryAfterMillis()); // after the Retry-After it tries once more, and gives that back too
        assertThrows(ClockSkewException.class, generator::nextId);
        assertEquals(0, ownedSlots());
    }

    @Test
    void renewingInTheBackgroundAClockAheadByMoreThanTheLeaseNeverHoldsTwoSlots() {
        aheadMillis.set(7_000);
        LeasedGenerator generator = generator(source).renewInBackground().build();
        for (int tick = 0; tick < 1_000; tick++) { // 100 s of 100 ms ticks
            try {
                generator.maintainLease();
            } catch (ClockSkewException expected) {
                // given back
            }
            assertEquals(0, ownedSlots(), "tick " + tick + ": " + table.rows());
            assertThrows(IdUnavailableException.class, generator::nextId);
            truth.advance(100);
        }
        long grants = events.stream().filter(e -> e.startsWith("granted")).count();
        long releases = events.stream().filter(e -> e.startsWith("released")).count();
        assertEquals(grants, releases, "every slot taken was given back");
        assertTrue(grants >= 2 && grants <= 11, "one try per 10 s Retry-After: " + grants + " grants in 100 s");
    }

    @Test
    void aRenewedWindowThisClockHasPassedIsGivenBackNeverFollowedByAnotherAcquisition() {
        LeasedGenerator generator = generator(source).renewInBackground().build();
        generator.maintainLease();
        generator.nextId();
        aheadMillis.set(2 * TERMS.leaseMillis()); // the clock jumps ahead by two leases
        long acquisitionsBefore = slotsEverLeased();

        ClockSkewException refused = assertThrows(ClockSkewException.class, generator::maintainLease);
        assertTrue(refused.getMessage().contains("already past the end"), refused.getMessage());
        assertEquals(acquisitionsBefore, slotsEverLeased(), "no other slot was taken");
        assertEquals(0, ownedSlots(), "the renewed lease was released");
        assertEquals(List.of("granted fence 1", "renewed fence 1", "released fence 1"), withoutReasons(events));
        assertFalse(generator.maintainLease(), "no new lease for the refusal's Retry-After");
        assertEquals(acquisitionsBefore, slotsEverLeased());
    }

    @Test
    void renewalsStayAtMostTwiceTheNormalRateWhenTheClockIsAheadByMostOfTheLease() {
        assertTrue(renewalsInAMinute(0) <= 60_000 / (TERMS.leaseMillis() / 2) + 1);
        long normal = renewalsInAMinute(0);
        long ahead = renewalsInAMinute(4_000); // 0.8 of the lease: every renewed window is "due" at once
        assertTrue(ahead <= 2 * normal + 1, "renewals with the clock 4 s ahead: " + ahead + ", with none: " + normal);
        assertTrue(ahead > normal, "the skew does cost renewals (" + ahead + " vs " + normal + "), the test can tell");
    }

    /** Renewals (confirmed) over a minute of 10 ms ticks of the owner's thread. */
    private long renewalsInAMinute(long ahead) {
        events.clear();
        InMemoryLeaseStore store = new InMemoryLeaseStore();
        ManualClock time = new ManualClock(T);
        PooledLeaseSource leases = new PooledLeaseSource(store, POOL, TERMS, time, "holder");
        LeasedGenerator generator = LeasedGenerator.builder(leases, TERMS, () -> time.millis() + ahead, CODEC)
                .renewInBackground().events(new Recorder(events)).build();
        for (int tick = 0; tick < 6_000; tick++) {
            generator.maintainLease();
            time.advance(10);
        }
        assertEquals(1, events.stream().filter(e -> e.startsWith("granted")).count(), "one lease all along: " + events);
        return events.stream().filter(e -> e.startsWith("renewed")).count();
    }

    /**
     * The simulator's seed 2052873 (an hour's run, one crash and two clock jumps): an environment
     * whose clock had jumped 100 s ahead renewed this holder's lease; its write landed and only
     * then was its clock refused. Stores never shorten a lease, so the holder's next renewal was
     * answered with that expiry, and once the holder's own clock jumped 45 s it issued 45 s ahead
     * of true time. It issues only as far as the lease reaches from when it asked.
     */
    @Test
    void anExpiryWrittenUnderARefusedClockIsNotIssuedUnderBeyondTheLeaseFromWhenTheHolderAsked() {
        LeasedGenerator generator = generator(source).build();
        generator.nextId();
        Lease held = generator.currentLease().orElseThrow(AssertionError::new);
        PooledLeaseSource jumpedEnvironment = new PooledLeaseSource(table.newClient().setClockSkewMillis(100_000), POOL, TERMS,
                () -> truth.millis() + 100_000, "environment");
        assertThrows(ClockSkewException.class, () -> jumpedEnvironment.renew(held.slot(), held.owner(), held.fence()));
        long inflated = table.row(held.slot()).orElseThrow(AssertionError::new).expiresAt;
        assertTrue(inflated > truth.millis() + 90_000, "the refused renewal's write landed: " + inflated);

        truth.advance(3_000); // less than half the lease left: the next ID renews inline
        long askedAt = holderClock.millis();
        generator.nextId();
        assertEquals(inflated, table.row(held.slot()).orElseThrow(AssertionError::new).expiresAt, "the table keeps it, as the next floor");
        assertEquals(askedAt + TERMS.leaseMillis(), generator.currentLease().orElseThrow(AssertionError::new).window().expiresAt());

        aheadMillis.set(45_000); // the holder's clock jumps; its source measures that on its next answer
        table.setClockSkewMillis(45_000);
        long latestAllowed = truth.millis() + TERMS.leaseMillis() + TERMS.toleratedSkewMillis();
        for (int call = 0; call < 100; call++) {
            try {
                long issuedAt = CODEC.decode(generator.nextId()).unixMillis();
                assertTrue(issuedAt <= latestAllowed, "issued at " + issuedAt + ", " + (issuedAt - truth.millis())
                        + " ms ahead of true time; the lease and the tolerated skew allow " + (latestAllowed - truth.millis()));
            } catch (IdUnavailableException refused) {
                // fails closed: past its window, and the clock is given back once measured
            }
        }
    }

    @Test
    void aSkewTheSourceMeasuresBeyondTheToleranceGivesTheLeaseBackAtStartAndLater() {
        AtomicReference<Long> measured = new AtomicReference<>(0L);
        LeaseSource measuring = new Measuring(source, measured);
        measured.set(1_251L); // tolerated: 250 + 1000 for the Date header
        ClockSkewException atStart = assertThrows(ClockSkewException.class,
                () -> generator(measuring).renewInBackground().startingWith(source.acquire()).build());
        assertTrue(atStart.getMessage().startsWith("this clock is 1251 ms ahead of the lease source's, allowed 1250 ms"),
                atStart.getMessage());
        assertEquals(0, ownedSlots());

        measured.set(-1_250L);
        LeasedGenerator generator = generator(measuring).renewInBackground().startingWith(source.acquire()).build();
        generator.nextId();
        truth.advance(2_600); // due
        measured.set(-4_000L); // the clock stepped back
        ClockSkewException later = assertThrows(ClockSkewException.class, generator::maintainLease);
        assertTrue(later.getMessage().startsWith("this clock is 4000 ms behind the lease source's"), later.getMessage());
        assertEquals(0, ownedSlots(), "given back");
        assertThrows(LeaseExpiredException.class, generator::nextId);
    }

    @Test
    void callersFailAtOnceWhileTheOwnersThreadWaitsOnAHangingSource() throws Exception {
        CountDownLatch answer = new CountDownLatch(1);
        CountDownLatch renewing = new CountDownLatch(1);
        LeaseSource hanging = new LeaseSource() {
            @Override
            public Lease acquire() {
                return source.acquire();
            }

            @Override
            public Lease renew(Lease lease) {
                renewing.countDown();
                try {
                    answer.await(30, TimeUnit.SECONDS); // the lease API accepted the connection and says nothing
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new LeaseStoreUnavailableException("read timed out", 1_000, null);
            }

            @Override
            public void release(Lease lease, long lastIssuedMillis) {
                source.release(lease, lastIssuedMillis);
            }
        };
        LeasedGenerator generator = generator(hanging).renewInBackground().build();
        generator.maintainLease();
        generator.nextId();
        truth.advance(3_000); // due
        Thread owner = new Thread(() -> {
            try {
                generator.maintainLease();
            } catch (LeaseStoreUnavailableException expected) {
                // the hanging renewal timed out at last
            }
        }, "owner");
        owner.setDaemon(true);
        owner.start();
        assertTrue(renewing.await(10, TimeUnit.SECONDS));
        truth.advance(2_000); // the window has ended while the renewal hangs
        List<Thread> callers = new ArrayList<>();
        AtomicLong slowestNanos = new AtomicLong();
        AtomicLong refusals = new AtomicLong();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        for (int t = 0; t < 8; t++) {
            Thread caller = new Thread(() -> {
                for (int i = 0; i < 2_000; i++) {
                    long started = System.nanoTime();
                    try {
                        generator.nextId();
                        unexpected.compareAndSet(null, new AssertionError("an ID past the window"));
                    } catch (LeaseExpiredException expected) {
                        refusals.incrementAndGet();
                        if (!expected.getMessage().contains("a call to the lease source has been in progress")) {
                            unexpected.compareAndSet(null, expected);
                        }
                    } catch (Throwable other) {
                        unexpected.compareAndSet(null, other);
                    }
                    slowestNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
                }
            });
            caller.start();
            callers.add(caller);
        }
        for (Thread caller : callers) {
            caller.join(60_000);
            assertFalse(caller.isAlive(), "a caller still waits after 60 s: callers must not wait on the owner's call");
        }
        answer.countDown();
        owner.join(10_000);
        assertFalse(owner.isAlive(), "the owner's call did not end 10 s after its answer");
        assertNull(unexpected.get());
        assertEquals(16_000, refusals.get());
        assertTrue(slowestNanos.get() < TimeUnit.MILLISECONDS.toNanos(500),
                "the slowest refusal took " + slowestNanos.get() / 1_000_000 + " ms while the renewal hung");
    }

    /** "granted 2:1 fence 1 (…)" → "granted fence 1": the pool's slots are taken in random order. */
    private static List<String> withoutReasons(List<String> events) {
        List<String> plain = new ArrayList<>();
        for (String event : events) {
            plain.add(event.replaceAll(" \\(.*$", "").replaceAll(" [0-9]+:[0-9]+ ", " "));
        }
        return plain;
    }

    /** A source that reports a skew the test sets, as an HTTP source reads it from the Date header. */
    private static final class Measuring implements LeaseSource {
        private final LeaseSource inner;
        private final AtomicReference<Long> skew;

        Measuring(LeaseSource inner, AtomicReference<Long> skew) {
            this.inner = inner;
            this.skew = skew;
        }

        @Override
        public Lease acquire() {
            return inner.acquire();
        }

        @Override
        public Lease renew(Lease lease) {
            return inner.renew(lease);
        }

        @Override
        public void release(Lease lease, long lastIssuedMillis) {
            inner.release(lease, lastIssuedMillis);
        }

        @Override
        public OptionalLong clockSkewMillis() {
            return OptionalLong.of(skew.get());
        }
    }

    /** Writes each event as "granted 2:0 fence 1 (…)". */
    static final class Recorder implements LeaseEvents {
        private final List<String> events;

        Recorder(List<String> events) {
            this.events = events;
        }

        @Override
        public synchronized void granted(Lease lease) {
            events.add("granted " + lease.slot() + " fence " + lease.fence());
        }

        @Override
        public synchronized void renewed(Lease lease) {
            events.add("renewed " + lease.slot() + " fence " + lease.fence());
        }

        @Override
        public synchronized void released(Lease lease, long lastIssuedMillis, String why) {
            events.add("released " + lease.slot() + " fence " + lease.fence() + " (" + why + ")");
        }

        @Override
        public synchronized void lost(Lease lease, String why) {
            events.add("lost " + lease.slot() + " fence " + lease.fence() + " (" + why + ")");
        }
    }
}
