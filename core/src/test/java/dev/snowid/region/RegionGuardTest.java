package dev.snowid.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.testing.InMemoryClaimMarkers;
import dev.snowid.testing.InMemoryClaimRegistry;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import org.junit.jupiter.api.Test;

/** What the guard does when the registry's region is down, and how a guarded pool refuses. */
class RegionGuardTest {

    private static final long T = 1_700_000_000_000L;
    private static final Block BLOCK = Block.of(6);
    private static final Claimant EU = Claimant.of("eu-west-1", "snowid");

    private final ManualClock clock = new ManualClock(T);
    private final InMemoryClaimRegistry registry = new InMemoryClaimRegistry();
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final InMemoryClaimMarkers markers = new InMemoryClaimMarkers();

    private RegionGuard guard() {
        return new RegionGuard(BLOCK, EU, new BlockHandover(registry, table, markers, clock));
    }

    @Test
    void whileTheRegistryIsDownAProcessGrantsOnlyWithinTheIntervalOfItsOwnConfirmationAndRenewalsGoOn() {
        RegionGuard confirmed = guard();
        confirmed.beforeAcquisition();
        registry.setUnavailable(true);

        clock.set(T + RegionGuard.CONFIRMATION_MILLIS - 1);
        confirmed.beforeAcquisition();
        RegionGuard coldStart = guard();
        BlockNotClaimedException waits = assertThrows(BlockNotClaimedException.class, coldStart::beforeAcquisition,
                "a confirmation read from the table would be carried by a restore or a copy: only the process's own counts");
        assertEquals(RegionGuard.RETRY_AFTER_REGISTRY_MILLIS, waits.retryAfterMillis());

        clock.set(T + RegionGuard.CONFIRMATION_MILLIS);
        assertThrows(BlockNotClaimedException.class, confirmed::beforeAcquisition, "past the interval, grants wait too");
        confirmed.beforeRenewal();
        registry.setUnavailable(false);
        confirmed.beforeAcquisition();
        assertEquals(RegionGuard.State.CLAIMED, confirmed.state());
    }

    @Test
    void aSnapshotRestoreForgetsTheConfirmationAndAsksTheRegistryAgain() {
        RegionGuard guard = guard();
        guard.beforeAcquisition();
        registry.setUnavailable(true);

        guard.forget();

        assertEquals(RegionGuard.State.UNCHECKED, guard.state());
        assertThrows(BlockNotClaimedException.class, guard::beforeAcquisition);
    }

    @Test
    void aClaimMadeBeforeClaimsHadIdsIsBoundToTheTableThatRecordsIt() {
        registry.claimWithoutId(BLOCK, EU, T);
        markers.forge(new ClaimMarker(BLOCK, EU, ClaimMarker.State.CLAIMED, 0, T, null, null));
        InMemoryClaimMarkers recreated = new InMemoryClaimMarkers();

        assertThrows(BlockNotClaimedException.class,
                () -> new RegionGuard(BLOCK, EU, new BlockHandover(registry, table, recreated, clock)).beforeAcquisition(),
                "a table without the old marker binds nothing");
        guard().beforeAcquisition();

        Claim bound = registry.claims().get(BLOCK).current();
        assertEquals(markers.table(), bound.table());
        assertEquals(bound.claimId(), markers.read(BLOCK).get().claimId());
        assertEquals(T, bound.claimedAt(), "the claim keeps its time");
        assertEquals(1, registry.claims().get(BLOCK).claims().size());
    }

    @Test
    void twoEnvironmentsOfOneStackClaimingAtOnceBothEndUpConfirmingTheOneClaim() {
        RegionGuard first = guard();
        RegionGuard second = guard();
        // Another environment's claim won the registry but has not written its marker yet: the claim is this table's own.
        registry.claim(BLOCK, EU, "0123456789abcdef0123456789abcdef", markers.table(), T);

        first.beforeAcquisition();
        second.beforeAcquisition();

        assertEquals("0123456789abcdef0123456789abcdef", markers.read(BLOCK).get().claimId());
        assertEquals(RegionGuard.State.CLAIMED, second.state());
    }

    @Test
    void aNewClaimWaitsForTheRegistryAndSaysSo() {
        registry.setUnavailable(true);
        RegionGuard guard = guard();

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, guard::beforeAcquisition);

        assertTrue(refused.getMessage().contains("registry") && refused.getMessage().contains(EU.toString()), refused.getMessage());
        assertEquals(RegionGuard.RETRY_AFTER_REGISTRY_MILLIS, refused.retryAfterMillis());
        assertEquals(RegionGuard.State.REFUSED, guard.state());
        registry.setUnavailable(false);
        guard.beforeAcquisition();
        assertEquals(RegionGuard.State.CLAIMED, guard.state());
    }

    @Test
    void theOwnTableDownIsTheStoresOutageNotARefusal() {
        markers.setUnavailable(true);

        assertThrows(LeaseStoreUnavailableException.class, guard()::beforeAcquisition);
    }

    @Test
    void aGuardedPoolAcquiresOnlyAfterTheGuardLetsItAndARetriedGrantIsAnsweredWithoutAsking() {
        PooledLeaseSource pool = new PooledLeaseSource(table, BLOCK.slots(), LeaseTerms.DEFAULT, clock, "test").guardedBy(guard());
        registry.claim(BLOCK, Claimant.of("us-east-1", "snowid"), "fedcba9876543210fedcba9876543210", "another table", T);

        assertThrows(BlockNotClaimedException.class, () -> pool.acquire("agent", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"));
        assertTrue(table.heldSlots().isEmpty(), "nothing leased");

        InMemoryClaimRegistry free = new InMemoryClaimRegistry();
        InMemoryClaimMarkers ours = new InMemoryClaimMarkers();
        PooledLeaseSource guarded = new PooledLeaseSource(table, BLOCK.slots(), LeaseTerms.DEFAULT, clock, "test")
                .guardedBy(new RegionGuard(BLOCK, EU, new BlockHandover(free, table, ours, clock)));
        Lease lease = guarded.acquire("agent", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb");
        assertTrue(BLOCK.contains(lease.slot()));
        ours.setUnavailable(true);
        assertEquals(lease.slot(), guarded.acquire("agent", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb").slot(),
                "an acquisition answered again by its request id was guarded when it was granted");
    }

    @Test
    void aPoolSpanningTwoBlocksCannotBeClaimedAndAPoolInsideOneClaimsIt() {
        assertEquals(Block.of(1), Block.containing(dev.snowid.lease.SlotPool.parse("5", "0-31")));
        IllegalArgumentException spans = assertThrows(IllegalArgumentException.class,
                () -> Block.containing(dev.snowid.lease.SlotPool.parse("2-5", "0-31")));
        assertTrue(spans.getMessage().contains("block 0") && spans.getMessage().contains("block 1"), spans.getMessage());
        assertEquals(Slot.of(24, 0), Block.parse("24-27").slots().slots().get(0));
        assertThrows(IllegalArgumentException.class, () -> Block.parse("2-5"));
        assertEquals("block 7 (datacenters 28-31)", Block.ofDatacenter(31).toString());
    }
}
