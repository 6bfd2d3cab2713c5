package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.testing.CountingLeaseStore;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PooledLeaseSourceTest {

    private static final long T = 1_700_000_000_000L;
    private static final LeaseTerms TERMS = LeaseTerms.of(60_000, 2_000);

    private final ManualClock clock = new ManualClock(T);
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final CountingLeaseStore counted = new CountingLeaseStore(table);

    private PooledLeaseSource source(SlotPool pool) {
        return new PooledLeaseSource(counted, pool, TERMS, clock, "test");
    }

    /** Other holders take {@code slots}, each until {@code expiresAt}, through another client of the table. */
    private void holdElsewhere(List<Slot> slots, long expiresAt) {
        InMemoryLeaseStore other = table.newClient();
        for (Slot slot : slots) {
            other.tryAcquire(slot, "others-token-others-token-others", "other", clock.millis(), expiresAt).get();
        }
    }

    /** Lets the client measure the store's clock once, as an earlier request would have. */
    private void skewKnown() {
        table.ownedExpiries();
    }

    @Test
    void aFreePoolTakesOneRoundTripOnceTheStoresClockIsKnown() {
        skewKnown();
        PooledLeaseSource source = source(SlotPool.of(0, 3, 0, 31));
        Lease lease = source.acquire();
        assertEquals(1, counted.roundTrips());
        assertEquals(LeaseWindow.of(0, T + 60_000), lease.window(), "floor from the store, expiry now + lease");
        assertEquals(lease.owner(), table.row(lease.slot()).get().owner);
    }

    @Test
    void theFirstAcquisitionScansFirstWhileTheSkewIsUnknown() {
        Lease lease = source(SlotPool.of(0, 3, 0, 31)).acquire();
        assertEquals(1, counted.scans());
        assertEquals(1, counted.writes());
        assertEquals(lease.owner(), table.row(lease.slot()).get().owner);
    }

    @Test
    void atNinetyNinePercentOccupancyAnAcquisitionTakesAboutThreeRoundTrips() {
        SlotPool pool = SlotPool.of(0, 3, 0, 24);
        Slot free = pool.slots().get(42);
        holdElsewhere(pool.slots().stream().filter(slot -> !slot.equals(free)).toList(), T + 3_600_000);
        skewKnown();
        PooledLeaseSource source = source(pool);
        int acquisitions = 2_000;
        long most = 0;
        long total = 0;
        for (int i = 0; i < acquisitions; i++) {
            long before = counted.roundTrips();
            Lease lease = source.acquire();
            long roundTrips = counted.roundTrips() - before;
            assertEquals(free, lease.slot());
            most = Math.max(most, roundTrips);
            total += roundTrips;
            clock.advance(2);
            source.release(lease, 0);
            clock.advance(2);
        }
        double mean = (double) total / acquisitions;
        System.out.printf("round trips per acquisition, 99 of 100 slots held: mean %.3f, max %d (%d acquisitions)%n", mean, most, acquisitions);
        // 1% of probes hit the free slot (1 round trip); the rest take probe + Scan + write (3): 2.98 expected.
        assertTrue(mean > 2.9 && mean < 3.01, "mean " + mean);
        assertEquals(3, most);
    }

    @Test
    void atHalfOccupancyAnAcquisitionTakesAboutTwoRoundTrips() {
        SlotPool pool = SlotPool.of(0, 3, 0, 24);
        holdElsewhere(pool.slots().subList(0, 50), T + 3_600_000);
        skewKnown();
        PooledLeaseSource source = source(pool);
        int acquisitions = 2_000;
        long total = 0;
        for (int i = 0; i < acquisitions; i++) {
            long before = counted.roundTrips();
            Lease lease = source.acquire();
            total += counted.roundTrips() - before;
            clock.advance(2);
            source.release(lease, 0);
            clock.advance(2);
        }
        double mean = (double) total / acquisitions;
        System.out.printf("round trips per acquisition, 50 of 100 slots held: mean %.3f (%d acquisitions)%n", mean, acquisitions);
        assertTrue(mean > 1.9 && mean < 2.1, "mean " + mean);
    }

    @Test
    void expiredLeasesAreFreeAndTheirExpiryBecomesTheFloor() {
        SlotPool pool = SlotPool.of(1, 1, 0, 3);
        holdElsewhere(pool.slots().subList(0, 3), T + 60_000);
        holdElsewhere(pool.slots().subList(3, 4), T + 10_000);
        clock.set(T + 10_001);
        Lease lease = source(pool).acquire();
        assertEquals(Slot.of(1, 3), lease.slot());
        assertEquals(LeaseWindow.of(T + 10_000, T + 70_001), lease.window());
        assertEquals(2, lease.fence());
    }

    @Test
    void aFullPoolSaysSoAndWhenTheEarliestLeaseEnds() {
        SlotPool pool = SlotPool.of(2, 2, 0, 3);
        for (int i = 0; i < 4; i++) {
            holdElsewhere(pool.slots().subList(i, i + 1), T + 10_000 * (4 - i));
        }
        skewKnown();
        clock.advance(1_000);
        NoFreeSlotException full = assertThrows(NoFreeSlotException.class, () -> source(pool).acquire());
        assertEquals(9_001, full.retryAfterMillis(), "free once now is past the earliest expiry");
        assertEquals("no free slot in the pool of datacenters 2 x machines 0-3 (4 slots): all 4 are held;"
                + " the earliest lease ends in 9001 ms", full.getMessage());
        assertEquals(2, counted.roundTrips(), "one probe, one Scan");
    }

    @Test
    void slotsOutsideThePoolDoNotCount() {
        holdElsewhere(List.of(Slot.of(5, 0)), T + 1_000);
        SlotPool pool = SlotPool.of(2, 2, 0, 0);
        holdElsewhere(pool.slots(), T + 30_000);
        NoFreeSlotException full = assertThrows(NoFreeSlotException.class, () -> source(pool).acquire());
        assertEquals(30_001, full.retryAfterMillis());
    }

    @Test
    void aClockTooFarFromTheStoresIsRefusedBeforeAnyWrite() {
        table.setClockSkewMillis(3_001);
        skewKnown();
        ClockSkewException refused = assertThrows(ClockSkewException.class, () -> source(SlotPool.of(0, 0, 0, 3)).acquire());
        assertTrue(refused.getMessage().startsWith("this clock is 3001 ms ahead of the lease store's, allowed 3000 ms"),
                refused.getMessage());
        assertEquals(0, counted.writes());
        assertTrue(table.rows().isEmpty());

        table.setClockSkewMillis(-3_001);
        assertTrue(assertThrows(ClockSkewException.class, () -> source(SlotPool.of(0, 0, 0, 3)).acquire())
                .getMessage().startsWith("this clock is 3001 ms behind the lease store's"));
    }

    @Test
    void aSkewWithinTheBoundPlusTheDateHeadersSecondIsAccepted() {
        table.setClockSkewMillis(-3_000);
        skewKnown();
        Lease behind = source(SlotPool.of(0, 0, 0, 3)).acquire();
        assertEquals(-3_000, counted.clockSkewMillis().getAsLong());
        table.setClockSkewMillis(3_000);
        Lease ahead = source(SlotPool.of(0, 0, 0, 3)).acquire();
        assertEquals(3_000, counted.clockSkewMillis().getAsLong());
        // Both kept, not handed back: the store still records each as its holder's.
        assertEquals(behind.owner(), table.row(behind.slot()).get().owner);
        assertEquals(ahead.owner(), table.row(ahead.slot()).get().owner);
        assertNotEquals(behind.slot(), ahead.slot());
    }

    @Test
    void aClockFarAheadCannotTakeOverALiveLeaseBeforeTheStoresClockIsKnown() {
        Slot only = Slot.of(0, 0);
        holdElsewhere(List.of(only), T + 60_000);
        InMemoryLeaseStore.Row before = table.row(only).get();
        // This process's clock is two minutes ahead: to it, the live lease looks expired.
        ManualClock ahead = new ManualClock(T + 120_000);
        InMemoryLeaseStore client = table.newClient().setClockSkewMillis(120_000);
        CountingLeaseStore countedClient = new CountingLeaseStore(client);
        PooledLeaseSource source = new PooledLeaseSource(countedClient, SlotPool.of(0, 0, 0, 0), TERMS, ahead, "ahead");
        assertThrows(ClockSkewException.class, source::acquire);
        assertEquals(0, countedClient.writes());
        assertEquals(before.owner, table.row(only).get().owner);
        assertEquals(before.fence, table.row(only).get().fence);
    }

    @Test
    void everyAcquisitionDrawsANewOwnerTokenOf128Bits() {
        skewKnown();
        PooledLeaseSource source = source(SlotPool.of(0, 0, 0, 0));
        Set<String> tokens = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            Lease lease = source.acquire();
            assertTrue(lease.owner().matches("[0-9a-f]{32}"), lease.owner());
            tokens.add(lease.owner());
            clock.advance(2);
            source.release(lease, 0);
            clock.advance(2);
        }
        assertEquals(1_000, tokens.size());
    }

    @Test
    void theHolderIsWrittenForOperators() {
        Lease lease = source(SlotPool.of(0, 0, 0, 0)).acquire("agent on host-1 pid 4242");
        assertEquals("agent on host-1 pid 4242", table.row(lease.slot()).get().holder);
        clock.advance(60_001);
        Lease next = source(SlotPool.of(0, 0, 0, 0)).acquire();
        assertEquals("test", table.row(next.slot()).get().holder);
    }

    @Test
    void renewalExtendsFromNowAndNeverShortens() {
        PooledLeaseSource source = source(SlotPool.of(0, 0, 0, 0));
        Lease lease = source.acquire();
        clock.advance(40_000);
        Lease renewed = source.renew(lease);
        assertEquals(LeaseWindow.of(0, T + 100_000), renewed.window());
        assertEquals(T + 100_000, table.row(lease.slot()).get().expiresAt);
        clock.set(T); // the clock stepped back: the renewal keeps the expiry in force
        assertEquals(T + 100_000, source.renew(renewed).window().expiresAt());
    }

    @Test
    void renewAndReleaseForAnotherHolderNeedItsOwnerAndFence() {
        PooledLeaseSource source = source(SlotPool.of(0, 0, 0, 0));
        Lease lease = source.acquire("agent");
        assertThrows(LeaseLostException.class, () -> source.renew(lease.slot(), "f".repeat(32), lease.fence()));
        assertThrows(LeaseLostException.class, () -> source.release(lease.slot(), lease.owner(), lease.fence() + 1, 0));
        clock.advance(31_000);
        assertEquals(T + 91_000, source.renew(lease.slot(), lease.owner(), lease.fence()).window().expiresAt());
        source.release(lease.slot(), lease.owner(), lease.fence(), T + 31_000);
        assertEquals(T + 31_001, table.row(lease.slot()).get().expiresAt);
        assertEquals(null, table.row(lease.slot()).get().owner);
    }

    @Test
    void anUnreachableStoreIsReportedAsSuch() {
        table.setFault(InMemoryLeaseStore.Fault.UNAVAILABLE);
        assertThrows(LeaseStoreUnavailableException.class, () -> source(SlotPool.of(0, 0, 0, 0)).acquire());
    }

    @Test
    void tokensAreNotSharedBetweenSources() {
        skewKnown();
        Lease first = source(SlotPool.of(0, 0, 0, 0)).acquire();
        Lease second = source(SlotPool.of(0, 0, 1, 1)).acquire();
        assertNotEquals(first.owner(), second.owner());
    }
}
