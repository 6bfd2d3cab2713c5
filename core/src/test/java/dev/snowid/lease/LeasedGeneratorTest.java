package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseExpiredException;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.testing.CountingLeaseStore;
import dev.snowid.testing.InMemoryLeaseStore.Fault;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LeasedGeneratorTest {

    private static final long T = 1_700_000_000_000L;
    private static final LeaseTerms TERMS = LeaseTerms.of(10_000, 1_000);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;
    private static final Slot A = Slot.of(1, 0);
    private static final Slot B = Slot.of(1, 1);

    private final ManualClock clock = new ManualClock(T);
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final CountingLeaseStore counted = new CountingLeaseStore(table);

    private LeasedGenerator generator(SlotPool pool) {
        return new LeasedGenerator(new PooledLeaseSource(counted, pool, TERMS, clock, "test"), TERMS, clock, CODEC);
    }

    private LeasedGenerator onSlotA() {
        return generator(SlotPool.of(1, 1, 0, 0));
    }

    /** Another process, whose clock reads {@code now}, takes {@code slot} through the same table. */
    private Lease takeOver(Slot slot, long now) {
        return table.newClient().tryAcquire(slot, "thief-token-thief-token-thief-to", "thief", now, now + 10_000)
                .orElseThrow(() -> new AssertionError("slot " + slot + " should be free at " + now));
    }

    private static SnowflakeId decode(long id) {
        return CODEC.decode(id);
    }

    @Test
    void leasesOnTheFirstIdNotBefore() {
        LeasedGenerator generator = onSlotA();
        assertEquals(0, counted.roundTrips());
        assertFalse(generator.currentLease().isPresent());
        clock.advance(7);
        SnowflakeId id = decode(generator.nextId());
        assertEquals(A, id.slot());
        assertEquals(T + 7, id.unixMillis());
        Lease lease = generator.currentLease().get();
        assertEquals(A, lease.slot());
        assertEquals(T + 10_007, lease.window().expiresAt());
        assertEquals(lease.owner(), table.row(A).get().owner);
    }

    @Test
    void aBadCountIsRefusedBeforeAnythingIsLeased() {
        LeasedGenerator generator = onSlotA();
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> generator.nextIds(4_097));
        assertEquals("count 4097 is out of range: allowed 1 to 4096", error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> generator.nextIds(0));
        assertEquals(0, counted.roundTrips());
        assertEquals(4_096, generator.nextIds(4_096).length);
    }

    @Test
    void renewsOnTheRequestPathOnceLessThanHalfIsLeft() {
        LeasedGenerator generator = onSlotA();
        generator.nextId();
        long writes = counted.writes();
        clock.advance(5_000);
        generator.nextId();
        assertEquals(writes, counted.writes(), "half left: not due yet");
        clock.advance(1);
        generator.nextId();
        assertEquals(writes + 1, counted.writes(), "one renewal");
        assertEquals(T + 15_001, generator.currentLease().get().window().expiresAt());
        assertEquals(T + 15_001, table.row(A).get().expiresAt);
        generator.nextId();
        assertEquals(writes + 1, counted.writes(), "renewed once, not on every call");
        clock.set(T + 15_000);
        assertEquals(T + 15_000, decode(generator.nextId()).unixMillis(), "issues past the first expiry under the renewal");
    }

    @Test
    void keepsIssuingWhileTheStoreIsDownUntilTheWindowEndsThenFailsClosed() {
        LeasedGenerator generator = onSlotA();
        generator.nextId();
        clock.advance(6_000);
        table.setFault(Fault.UNAVAILABLE);
        assertEquals(T + 6_000, decode(generator.nextId()).unixMillis());
        clock.set(T + 9_999);
        assertEquals(T + 9_999, decode(generator.nextId()).unixMillis());
        clock.set(T + 10_000);
        assertThrows(LeaseStoreUnavailableException.class, generator::nextId);
        assertThrows(LeaseStoreUnavailableException.class, () -> generator.nextIds(10));
        table.setFault(Fault.NONE);
        SnowflakeId id = decode(generator.nextId());
        assertEquals(A, id.slot());
        assertEquals(T + 10_000, id.unixMillis());
        assertEquals(1, table.row(A).get().fence, "the same lease, renewed: nobody held the slot meanwhile");
    }

    @Test
    void usesARenewedExpiryOnlyOnceTheStoreConfirmedIt() {
        LeasedGenerator generator = onSlotA();
        generator.nextId();
        clock.advance(6_000);
        table.setFault(Fault.ANSWER_LOST); // renewals reach the table, their answers do not come back
        generator.nextId();
        assertEquals(T + 16_000, table.row(A).get().expiresAt, "the store has the longer lease");
        assertEquals(T + 10_000, generator.currentLease().get().window().expiresAt());
        clock.set(T + 10_000);
        assertThrows(IdUnavailableException.class, generator::nextId, "unconfirmed: the old window ends");
    }

    @Test
    void aLostLeaseStopsIssuingAtOnceAndNoIdComesFromItAgain() {
        LeasedGenerator generator = onSlotA();
        long before = generator.nextId();
        Lease stolen = takeOver(A, T + 20_000); // a process whose clock is 20 s ahead sees the lease as expired
        clock.advance(6_000);
        NoFreeSlotException none = assertThrows(NoFreeSlotException.class, generator::nextId);
        assertTrue(none.getMessage().contains("all 1 are held"), none.getMessage());
        assertFalse(generator.currentLease().isPresent());
        assertThrows(IdUnavailableException.class, generator::nextId);
        assertTrue(decode(before).unixMillis() < stolen.window().floor());
    }

    @Test
    void afterALossAnotherSlotOfThePoolIsLeased() {
        LeasedGenerator generator = generator(SlotPool.of(1, 1, 0, 1));
        Slot first = decode(generator.nextId()).slot();
        Slot other = first.equals(A) ? B : A;
        takeOver(first, T + 20_000);
        clock.advance(6_000);
        SnowflakeId id = decode(generator.nextId());
        assertEquals(other, id.slot());
        assertEquals(T + 6_000, id.unixMillis());
    }

    @Test
    void frozenPastTheExpiryItRenewsTheSameSlotWhenNobodyTookIt() {
        LeasedGenerator generator = onSlotA();
        generator.nextId();
        long fence = generator.currentLease().get().fence();
        clock.advance(25_000); // frozen for longer than the lease
        long writes = counted.writes();
        SnowflakeId id = decode(generator.nextId());
        assertEquals(T + 25_000, id.unixMillis());
        assertEquals(A, id.slot());
        assertEquals(writes + 1, counted.writes(), "one renewal, no new acquisition");
        assertEquals(fence, generator.currentLease().get().fence());
        assertEquals(T + 35_000, generator.currentLease().get().window().expiresAt());
    }

    @Test
    void frozenPastTheExpiryWhileAnotherTookTheSlotItLeasesAnotherBeforeIssuing() {
        LeasedGenerator generator = generator(SlotPool.of(1, 1, 0, 1));
        SnowflakeId first = decode(generator.nextId());
        Slot other = first.slot().equals(A) ? B : A;
        clock.advance(15_000);
        Lease thief = takeOver(first.slot(), T + 15_000);
        SnowflakeId next = decode(generator.nextId());
        assertEquals(other, next.slot(), "nothing more from the slot it lost");
        assertEquals(T + 15_000, next.unixMillis());
        assertEquals(T + 10_000, thief.window().floor());
    }

    @Test
    void releaseFreesTheSlotAndTheNextHolderStartsAfterTheLastId() {
        LeasedGenerator first = onSlotA();
        clock.advance(100);
        long last = 0;
        for (int i = 0; i < 10_000; i++) {
            if (i % 1_000 == 0) {
                clock.advance(1);
            }
            last = Math.max(last, first.nextId());
        }
        first.release();
        assertFalse(first.currentLease().isPresent());
        assertEquals(null, table.row(A).get().owner);
        long lastMillis = decode(last).unixMillis();
        assertEquals(lastMillis + 1, table.row(A).get().expiresAt);

        clock.advance(2); // well before the old lease's end
        ManualClock secondClock = clock;
        LeasedGenerator second = new LeasedGenerator(new PooledLeaseSource(table.newClient(), SlotPool.of(1, 1, 0, 0), TERMS,
                secondClock, "second"), TERMS, secondClock, CODEC);
        long firstOfSecond = second.nextId();
        assertEquals(lastMillis + 1, second.currentLease().get().window().floor());
        assertTrue(firstOfSecond > last);
    }

    @Test
    void releasingWithNothingHeldDoesNothing() {
        LeasedGenerator generator = onSlotA();
        generator.release();
        assertEquals(0, counted.roundTrips());
        generator.nextId();
        generator.release();
        long roundTrips = counted.roundTrips();
        generator.release();
        assertEquals(roundTrips, counted.roundTrips());
    }

    @Test
    void forgetDropsTheLeaseWithoutTouchingTheStore() {
        LeasedGenerator generator = generator(SlotPool.of(1, 1, 0, 1));
        Slot snapshotSlot = decode(generator.nextId()).slot();
        Lease snapshotLease = generator.currentLease().get();
        long roundTrips = counted.roundTrips();
        generator.forget();
        assertEquals(roundTrips, counted.roundTrips());
        assertFalse(generator.currentLease().isPresent());
        assertEquals(snapshotLease.owner(), table.row(snapshotSlot).get().owner, "the snapshot's lease is left as it was");

        SnowflakeId id = decode(generator.nextId());
        assertNotEquals(snapshotSlot, id.slot(), "the snapshot's slot is still held, by the snapshot's token");
        assertNotEquals(snapshotLease.owner(), generator.currentLease().get().owner());
    }

    @Test
    void maintainLeaseLeasesWhenNothingIsHeldThenRenewsOnlyWhenDue() {
        LeasedGenerator generator = onSlotA();
        assertTrue(generator.maintainLease(), "nothing held: leases");
        assertEquals(T + 10_000, generator.currentLease().get().window().expiresAt());
        clock.advance(5_000);
        assertFalse(generator.maintainLease());
        clock.advance(1);
        assertTrue(generator.maintainLease());
        assertEquals(T + 15_001, generator.currentLease().get().window().expiresAt());
        assertFalse(generator.maintainLease());
    }

    @Test
    void maintainLeaseReportsALossAndStopsIssuing() {
        java.util.List<String> events = new java.util.ArrayList<>();
        LeasedGenerator generator = LeasedGenerator.builder(new PooledLeaseSource(counted, SlotPool.of(1, 1, 0, 0), TERMS, clock, "test"),
                TERMS, clock, CODEC).events(new LeasedGeneratorClockTest.Recorder(events)).build();
        generator.nextId();
        takeOver(A, T + 20_000);
        clock.advance(6_000);
        assertThrows(LeaseLostException.class, generator::maintainLease);
        assertFalse(generator.currentLease().isPresent());
        assertEquals(2, events.size(), events.toString());
        assertEquals("granted 1:0 fence 1", events.get(0));
        assertTrue(events.get(1).startsWith("lost 1:0 fence 1 ("), events.get(1));
    }

    @Test
    void maintainLeaseLeavesTheWindowInForceWhenTheStoreIsDown() {
        LeasedGenerator generator = onSlotA();
        generator.nextId();
        clock.advance(6_000);
        table.setFault(Fault.UNAVAILABLE);
        assertThrows(LeaseStoreUnavailableException.class, generator::maintainLease);
        assertEquals(T + 6_000, decode(generator.nextId()).unixMillis());
    }

    @Test
    void aSourceThatConfirmsAnEarlierExpiryLosesTheLeaseBeforeAnotherIdIsIssued() {
        // A store keeps the later expiry, so an earlier one confirmed means a broken source: the next
        // holder's floor could lie inside the window in force, so the generator gives it up.
        PooledLeaseSource pooled = new PooledLeaseSource(counted, SlotPool.of(1, 1, 0, 0), TERMS, clock, "test");
        LeaseSource shortening = new LeaseSource() {
            @Override
            public Lease acquire() {
                return pooled.acquire();
            }

            @Override
            public Lease renew(Lease lease) {
                return new Lease(lease.slot(), lease.owner(), lease.fence(),
                        LeaseWindow.of(lease.window().floor(), lease.window().expiresAt() - 3_000));
            }

            @Override
            public void release(Lease lease, long lastIssuedMillis) {
                pooled.release(lease, lastIssuedMillis);
            }
        };
        LeasedGenerator generator = new LeasedGenerator(shortening, TERMS, clock, CODEC);
        long first = generator.nextId();
        clock.set(T + 5_001);
        assertThrows(LeaseLostException.class, generator::maintainLease);
        assertFalse(generator.currentLease().isPresent(), "given up");
        assertThrows(NoFreeSlotException.class, generator::nextId, "the given-up lease still holds the only slot in the store");
        clock.set(T + 10_001); // the stored lease, not shortened, ends at T + 10,000
        SnowflakeId next = decode(generator.nextId());
        assertEquals(T + 10_000, generator.currentLease().get().window().floor(), "a new lease starts at the old one's stored expiry");
        assertEquals(T + 10_001, next.unixMillis());
        assertTrue(decode(first).unixMillis() < next.unixMillis());
    }

    private LeasedGenerator renewingInBackground() {
        return LeasedGenerator.builder(new PooledLeaseSource(counted, SlotPool.of(1, 1, 0, 0), TERMS, clock, "test"), TERMS, clock, CODEC)
                .renewInBackground()
                .build();
    }

    @Test
    void renewingInTheBackgroundCallsNeverTalkToTheSourceWhileTheWindowHolds() {
        LeasedGenerator generator = renewingInBackground();
        assertThrows(LeaseExpiredException.class, generator::nextId, "nothing held yet: the owner's thread leases, not a caller");
        assertEquals(0, counted.roundTrips());
        assertTrue(generator.maintainLease());
        generator.nextId();
        long roundTrips = counted.roundTrips();
        clock.advance(9_999); // long past due, not yet run out
        for (int i = 0; i < 100; i++) {
            assertEquals(T + 9_999, decode(generator.nextId()).unixMillis());
        }
        assertEquals(2, generator.nextIds(2).length);
        assertEquals(roundTrips, counted.roundTrips(), "only the owner's thread renews (maintainLease)");
        assertTrue(generator.maintainLease());
        assertEquals(T + 19_999, generator.currentLease().get().window().expiresAt());
    }

    @Test
    void renewingInTheBackgroundACallPastTheWindowFailsAtOnceAndTheOwnersThreadRenews() {
        LeasedGenerator generator = renewingInBackground();
        generator.maintainLease();
        generator.nextId();
        long fence = generator.currentLease().get().fence();
        clock.advance(10_000); // the window has ended and the owner's thread did not renew
        long roundTrips = counted.roundTrips();
        LeaseExpiredException refused = assertThrows(LeaseExpiredException.class, generator::nextId);
        assertTrue(refused.getMessage().contains("expired at " + (T + 10_000)) && refused.getMessage().contains("does not wait"),
                refused.getMessage());
        assertEquals(roundTrips, counted.roundTrips(), "a caller never talks to the source");
        assertTrue(generator.maintainLease());
        SnowflakeId id = decode(generator.nextId());
        assertEquals(T + 10_000, id.unixMillis());
        assertEquals(fence, generator.currentLease().get().fence(), "the same lease, renewed");
        assertEquals(T + 20_000, generator.currentLease().get().window().expiresAt());
    }

    @Test
    void renewingInTheBackgroundACallPastTheWindowFailsAtOnceRightAfterTheSourceFailed() {
        LeasedGenerator generator = renewingInBackground();
        generator.maintainLease();
        generator.nextId();
        clock.advance(10_000);
        table.setFault(Fault.UNAVAILABLE);
        assertThrows(LeaseStoreUnavailableException.class, generator::maintainLease, "the owner's thread tries and fails");
        long roundTrips = counted.roundTrips();
        LeaseExpiredException refused = assertThrows(LeaseExpiredException.class, generator::nextId);
        assertTrue(refused.getMessage().contains("expired at " + (T + 10_000)) && refused.getMessage().contains("the lease source failed"),
                refused.getMessage());
        assertTrue(refused.getCause() instanceof LeaseStoreUnavailableException);
        assertTrue(refused.retryAfterMillis() <= 1_000);
        assertFalse(generator.maintainLease(), "backing off for the failure's Retry-After");
        assertEquals(roundTrips, counted.roundTrips(), "no round trip to a source that just failed");
        clock.advance(1_000);
        table.setFault(Fault.NONE);
        assertTrue(generator.maintainLease(), "after the Retry-After, the owner's thread tries again");
        assertEquals(T + 11_000, decode(generator.nextId()).unixMillis());
    }

    @Test
    void shutdownReleasesAndNeverLeasesAgain() {
        LeasedGenerator generator = onSlotA();
        clock.advance(3);
        long last = generator.nextId();
        generator.shutdown();
        assertEquals(null, table.row(A).get().owner);
        assertEquals(decode(last).unixMillis() + 1, table.row(A).get().expiresAt);
        long roundTrips = counted.roundTrips();
        for (int i = 0; i < 3; i++) {
            LeaseExpiredException refused = assertThrows(LeaseExpiredException.class, generator::nextId);
            assertTrue(refused.getMessage().contains("shut down"), refused.getMessage());
        }
        assertThrows(LeaseExpiredException.class, () -> generator.nextIds(5));
        assertFalse(generator.maintainLease());
        assertEquals(roundTrips, counted.roundTrips(), "no lease after shutdown");
        assertEquals(null, table.row(A).get().owner);
        assertFalse(generator.currentLease().isPresent());
    }

    @Test
    void releaseUnlikeShutdownLeasesAgainOnTheNextId() {
        LeasedGenerator generator = onSlotA();
        generator.nextId();
        generator.release();
        clock.advance(2); // past the released expiry (the last ID's ms + 1)
        assertEquals(A, decode(generator.nextId()).slot(), "a CRaC checkpoint releases, and the restored process leases anew");
        assertEquals(generator.currentLease().get().owner(), table.row(A).get().owner);
    }

    /** A source handing out one lease whose floor was set by a clock {@code aheadMillis} ahead of ours. */
    private static LeaseSource floorAhead(long aheadMillis) {
        return new LeaseSource() {
            @Override
            public Lease acquire() {
                long floor = System.currentTimeMillis() + aheadMillis;
                return new Lease(A, "0123456789abcdef0123456789abcdef", 1, LeaseWindow.of(floor, floor + 60_000));
            }

            @Override
            public Lease renew(Lease lease) {
                return lease;
            }

            @Override
            public void release(Lease lease, long lastIssuedMillis) {
            }
        };
    }

    @Test
    void aFreshLeaseWhoseFloorIsALittleAheadIsWaitedForWhenAsked() {
        LeasedGenerator waiting = LeasedGenerator.builder(floorAhead(300), TERMS, WallClock.SYSTEM, CODEC)
                .waitForFloorUpTo(2_000).build();
        long id = waiting.nextId();
        assertTrue(decode(id).unixMillis() >= waiting.currentLease().get().window().floor(), "issued from the floor on");

        LeasedGenerator refusing = new LeasedGenerator(floorAhead(300), TERMS, WallClock.SYSTEM, CODEC);
        assertThrows(ClockBehindException.class, refusing::nextId, "without the option: the generator's few ms only");
    }

    @Test
    void aFreshLeaseWhoseFloorIsFurtherAheadThanTheWaitIsRefusedWithTheClockMessage() {
        LeasedGenerator generator = LeasedGenerator.builder(floorAhead(30_000), TERMS, WallClock.SYSTEM, CODEC)
                .waitForFloorUpTo(2_000).build();
        long before = System.nanoTime();
        ClockBehindException behind = assertThrows(ClockBehindException.class, generator::nextId);
        assertTrue((System.nanoTime() - before) / 1_000_000 < 1_000, "refused without waiting");
        assertTrue(behind.getMessage().contains("behind the new lease's floor") && behind.getMessage().contains("at most 2000 ms"),
                behind.getMessage());
        assertTrue(behind.behindMillis() > 28_000);
    }

    @Test
    void theFloorWaitIsBounded() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> LeasedGenerator.builder(floorAhead(0), TERMS, clock, CODEC).waitForFloorUpTo(10_001));
        assertEquals("floor wait 10001 ms is out of range: allowed 0 to 10000 ms", error.getMessage());
    }
}
