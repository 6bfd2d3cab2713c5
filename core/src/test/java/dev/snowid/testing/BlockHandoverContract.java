package dev.snowid.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.internal.HexToken;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.BlockHandover;
import dev.snowid.region.BlockNotClaimedException;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import dev.snowid.region.LiveLeasesException;
import dev.snowid.region.RegionGuard;
import dev.snowid.WallClock;
import java.security.SecureRandom;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two regions, each with its own lease table, and one claim registry: the guard, the release and
 * the next claim, on whatever the tables and the registry run on. The fakes run it
 * ({@code InMemoryBlockHandoverTest}), and the DynamoDB implementations on every engine. Times
 * are fixed unix ms: every condition compares the caller's clock, never the store's.
 */
public abstract class BlockHandoverContract {

    protected static final long T = 1_700_000_000_000L;
    private static final Block BLOCK = Block.of(1);
    private static final Claimant EU = Claimant.of("eu-west-1", "snowid");
    private static final Claimant US = Claimant.of("us-east-1", "snowid");
    private static final String TOKEN_A = "0123456789abcdef0123456789abcdef";
    private static final String TOKEN_B = "fedcba9876543210fedcba9876543210";

    /** A region's lease table: the lease store and the claim markers of one table. */
    protected static final class RegionTable {
        final LeaseStore store;
        final ClaimMarkers markers;

        public RegionTable(LeaseStore store, ClaimMarkers markers) {
            this.store = store;
            this.markers = markers;
        }
    }

    private final ManualClock clock = new ManualClock(T);
    private ClaimRegistry registry;
    private RegionTable eu;
    private RegionTable us;

    /** A registry on an empty table. */
    protected abstract ClaimRegistry newRegistry();

    /** A region's empty lease table. */
    protected abstract RegionTable newRegion();

    /** A table of another identity holding the same items: a restore from a backup, or a copy into another stack. */
    protected abstract RegionTable copyOf(RegionTable table);

    /** The table deleted and created again, empty, under the same name: a recreated stack. */
    protected abstract RegionTable recreated(RegionTable table);

    /** Writes {@code marker} into the table as an item, past every condition: a hand-written marker. */
    protected abstract void forge(RegionTable table, ClaimMarker marker);

    @BeforeEach
    void twoRegionsAndARegistry() {
        registry = newRegistry();
        eu = newRegion();
        us = newRegion();
    }

    private RegionGuard guard(RegionTable region, Claimant claimant, WallClock clock) {
        return new RegionGuard(BLOCK, claimant, handover(region, clock));
    }

    private BlockHandover handover(RegionTable region, WallClock clock) {
        return new BlockHandover(registry, region.store, region.markers, clock);
    }

    @Test
    void theFirstGuardedAcquisitionClaimsTheBlockAndTheTableKeepsTheConfirmation() {
        RegionGuard guard = guard(eu, EU, clock);
        assertEquals(RegionGuard.State.UNCHECKED, guard.state());

        guard.beforeAcquisition();

        assertEquals(RegionGuard.State.CLAIMED, guard.state());
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
        assertTrue(eu.markers.read(BLOCK).get().records(registry.claims().get(BLOCK).current()));
        assertEquals(eu.markers.table(), registry.claims().get(BLOCK).current().table(), "the claim is bound to this table");
        assertEquals(0, eu.markers.read(BLOCK).get().floor());
        assertFalse(us.markers.read(BLOCK).isPresent(), "the other region's table knows nothing of it");
    }

    @Test
    void aSecondRegionOnTheSameBlockIsRefusedNamingBothClaimsAndTheFirstKeepsLeasing() {
        guard(eu, EU, clock).beforeAcquisition();
        RegionGuard second = guard(us, US, clock);

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, second::beforeAcquisition);

        assertTrue(refused.getMessage().contains(EU.toString()) && refused.getMessage().contains(US.toString()), refused.getMessage());
        assertEquals(RegionGuard.State.REFUSED, second.state());
        assertFalse(us.markers.read(BLOCK).isPresent(), "a refused claim leaves no marker");
        guard(eu, EU, clock).beforeAcquisition();
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
    }

    @Test
    void aReleaseIsRefusedWhileALeaseOfTheBlockIsInForceAndChangesNothing() {
        guard(eu, EU, clock).beforeAcquisition();
        Slot slot = BLOCK.slots().slots().get(5);
        eu.store.tryAcquire(slot, TOKEN_A, "an agent", T, T + 60_000).get();

        LiveLeasesException refused = assertThrows(LiveLeasesException.class, () -> handover(eu, clock).release(BLOCK, EU));

        assertTrue(refused.getMessage().contains(slot.toString()) && refused.getMessage().contains("an agent"), refused.getMessage());
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
        assertTrue(eu.markers.read(BLOCK).get().confirms(EU), "the marker is untouched");
        eu.store.renew(slot, TOKEN_A, 1, T + 70_000);
    }

    @Test
    void aReleaseFencesTheOldRegionAndTheNextClaimStartsAtItsHighestExpiryWhateverItsClock() {
        guard(eu, EU, clock).beforeAcquisition();
        Slot early = BLOCK.slots().slots().get(0);
        Slot late = BLOCK.slots().slots().get(40);
        Lease first = eu.store.tryAcquire(early, TOKEN_A, "eu function", T, T + 60_000).get();
        eu.store.release(early, TOKEN_A, first.fence(), T + 10);
        Lease second = eu.store.tryAcquire(late, TOKEN_B, "eu agent", T, T + 60_000).get();
        eu.store.renew(late, TOKEN_B, second.fence(), T + 90_000);
        clock.set(T + 100_000);

        long until = handover(eu, clock).release(BLOCK, EU);

        assertEquals(T + 90_000, until, "the highest expiry the old region's table holds");
        BlockClaims claims = registry.claims().get(BLOCK);
        assertEquals(T + 90_000, claims.floor());
        assertEquals(EU, claims.claimAt(T + 89_999).claimant());
        assertEquals(ClaimMarker.State.RELEASED, eu.markers.read(BLOCK).get().state());
        // The old region is fenced: its holder cannot renew its expired lease, nobody can take a slot, its guard refuses.
        assertThrows(LeaseLostException.class, () -> eu.store.renew(late, TOKEN_B, second.fence(), T + 200_000));
        assertFalse(eu.store.tryAcquire(late, TOKEN_A, "eu again", T + 10_000_000, T + 10_060_000).isPresent());
        for (HeldSlot held : eu.store.heldSlots()) {
            assertEquals(BlockHandover.RETIRED_UNTIL, held.expiresAt(), held.toString());
        }
        assertEquals(128, eu.store.heldSlots().size(), "every slot of the block retired");
        assertThrows(BlockNotClaimedException.class, () -> guard(eu, EU, clock).beforeAcquisition());

        // The next region's clock is 40 s behind the old one's last expiry: it still cannot issue below it.
        ManualClock behind = new ManualClock(T + 50_000);
        guard(us, US, behind).beforeAcquisition();
        assertTrue(registry.claims().get(BLOCK).claimedBy(US));
        assertFalse(us.store.tryAcquire(late, TOKEN_A, "us function", T + 50_000, T + 110_000).isPresent(),
                "a seeded slot is not free before the old region's last expiry");
        Lease taken = us.store.tryAcquire(late, TOKEN_A, "us function", T + 90_001, T + 150_000).get();
        assertEquals(T + 90_000, taken.window().floor());
        Lease never = us.store.tryAcquire(BLOCK.slots().slots().get(100), TOKEN_B, "us agent", T + 90_001, T + 150_000).get();
        assertEquals(T + 90_000, never.window().floor(), "a slot the old region never used starts there too");
    }

    @Test
    void aReleasedBlockStaysRefusedUntilAnOperatorClaimsItAgain() {
        guard(eu, EU, clock).beforeAcquisition();
        Slot slot = BLOCK.slots().slots().get(7);
        Lease lease = eu.store.tryAcquire(slot, TOKEN_A, "eu", T, T + 60_000).get();
        eu.store.release(slot, TOKEN_A, lease.fence(), T + 20_000);
        clock.set(T + 70_000);
        long until = handover(eu, clock).release(BLOCK, EU);
        assertEquals(T + 20_001, until);

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, () -> guard(eu, EU, clock).beforeAcquisition());
        assertTrue(refused.getMessage().contains("released"), refused.getMessage());
        assertFalse(registry.claims().get(BLOCK).claimedBy(EU), "the guard never claims a released block by itself");

        ClaimMarker again = handover(eu, clock).claimAgain(BLOCK, EU);

        assertTrue(again.confirms(EU));
        guard(eu, EU, clock).beforeAcquisition();
        Lease after = eu.store.tryAcquire(slot, TOKEN_B, "eu again", T + 80_000, T + 140_000).get();
        assertEquals(T + 20_001, after.window().floor(), "the retired slot is free again, at the claim's floor");
        assertEquals(2, registry.claims().get(BLOCK).claims().size());
    }

    /** Found by the simulator (testing/simulator): a claim again that stopped half way could not be run again. */
    @Test
    void aClaimAgainThatFailedHalfWayCompletesWhenRunAgain() {
        guard(eu, EU, clock).beforeAcquisition();
        clock.set(T + 70_000);
        handover(eu, clock).release(BLOCK, EU);
        RegionTable markerWriteFails = new RegionTable(eu.store, new MarkersFailingToClaim(eu.markers));
        assertThrows(LeaseStoreUnavailableException.class, () -> handover(markerWriteFails, clock).claimAgain(BLOCK, EU));
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU), "the registry's write went through, the marker's did not");

        ClaimMarker again = handover(eu, clock).claimAgain(BLOCK, EU);

        assertTrue(again.records(registry.claims().get(BLOCK).current()), again.toString());
        guard(eu, EU, clock).beforeAcquisition();
    }

    /** A table whose marker writes for a claim fail (the table down at that moment). */
    private static final class MarkersFailingToClaim implements ClaimMarkers {
        private final ClaimMarkers markers;

        MarkersFailingToClaim(ClaimMarkers markers) {
            this.markers = markers;
        }

        @Override
        public String table() {
            return markers.table();
        }

        @Override
        public Optional<ClaimMarker> read(Block block) {
            return markers.read(block);
        }

        @Override
        public ClaimMarker markClaimed(Block block, Claimant claimant, String claimId, long floor, long now, boolean replacingRelease) {
            throw new LeaseStoreUnavailableException("the table is down (a test's fault)", 1_000, null);
        }

        @Override
        public ClaimMarker markReleased(Block block, Claimant claimant, String retiredBy, long now) {
            return markers.markReleased(block, claimant, retiredBy, now);
        }
    }

    @Test
    void aBlockThatChangedHandsNamesTheRegionOfEachIdByItsTime() {
        guard(eu, EU, clock).beforeAcquisition();
        Slot slot = BLOCK.slots().slots().get(3);
        Lease eu1 = eu.store.tryAcquire(slot, TOKEN_A, "eu", T, T + 60_000).get();
        eu.store.release(slot, TOKEN_A, eu1.fence(), T + 30_000);
        clock.set(T + 61_000);
        long euUntil = handover(eu, clock).release(BLOCK, EU);
        guard(us, US, clock).beforeAcquisition();
        Lease us1 = us.store.tryAcquire(slot, TOKEN_B, "us", T + 62_000, T + 122_000).get();
        assertEquals(euUntil, us1.window().floor());
        us.store.release(slot, TOKEN_B, us1.fence(), T + 100_000);
        clock.set(T + 130_000);
        long usUntil = handover(us, clock).release(BLOCK, US);
        handover(eu, clock).claimAgain(BLOCK, EU);

        BlockClaims claims = registry.claims().get(BLOCK);
        assertEquals(EU, claims.claimAt(T + 29_999).claimant());
        assertEquals(US, claims.claimAt(euUntil).claimant());
        assertEquals(US, claims.claimAt(T + 100_000).claimant());
        assertEquals(EU, claims.claimAt(usUntil).claimant());
        assertEquals(T + 100_001, usUntil);
        Optional<Lease> euAgain = eu.store.tryAcquire(slot, TOKEN_A, "eu", T + 140_000, T + 200_000);
        assertEquals(usUntil, euAgain.get().window().floor(), "back in the first table, the slot starts where the second region ended");
    }

    // Issue 32: the registry, not a marker, decides who owns a block. In each case below the wrong
    // stack grants nothing, and the stack that holds the claim keeps granting.

    @Test
    void aForgedMarkerInAnotherRegionsTableGrantsNothing() {
        guard(eu, EU, clock).beforeAcquisition();
        forge(us, new ClaimMarker(BLOCK, US, ClaimMarker.State.CLAIMED, 0, T, null, HexToken.draw(new SecureRandom())));

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, () -> guard(us, US, clock).beforeAcquisition());

        assertTrue(refused.getMessage().contains(EU.toString()) && refused.getMessage().contains(US.toString()), refused.getMessage());
        guard(eu, EU, clock).beforeAcquisition();
        assertTrue(registry.claims().get(BLOCK).claimedBy(EU));
    }

    @Test
    void aMarkerForgedWithTheRightClaimIdInAnotherRegionsTableGrantsNothing() {
        guard(eu, EU, clock).beforeAcquisition();
        String claimId = registry.claims().get(BLOCK).current().claimId();
        forge(us, new ClaimMarker(BLOCK, EU, ClaimMarker.State.CLAIMED, 0, T, null, claimId));

        assertThrows(BlockNotClaimedException.class, () -> guard(us, EU, clock).beforeAcquisition(),
                "the claim id alone is not the claim: the table is another");
        guard(eu, EU, clock).beforeAcquisition();
    }

    @Test
    void aTableRestoredFromBeforeAReleaseGrantsNothingAndTheNewHolderKeepsGranting() {
        guard(eu, EU, clock).beforeAcquisition();
        RegionTable backup = copyOf(eu);
        clock.set(T + 70_000);
        handover(eu, clock).release(BLOCK, EU);
        guard(us, US, clock).beforeAcquisition();

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, () -> guard(backup, EU, clock).beforeAcquisition());

        assertTrue(refused.getMessage().contains(US.toString()), refused.getMessage());
        guard(us, US, clock).beforeAcquisition();
        assertTrue(registry.claims().get(BLOCK).claimedBy(US));
    }

    @Test
    void aTableRestoredAfterAReleaseWhileTheBlockIsFreeGrantsNothingUntilAnOperatorClaimsIt() {
        guard(eu, EU, clock).beforeAcquisition();
        RegionTable backup = copyOf(eu);
        clock.set(T + 70_000);
        handover(eu, clock).release(BLOCK, EU);

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, () -> guard(backup, EU, clock).beforeAcquisition());

        assertTrue(refused.getMessage().contains("claim"), refused.getMessage());
        assertFalse(registry.claims().get(BLOCK).claimedBy(EU), "the guard never claims over a marker by itself");
        handover(backup, clock).claimAgain(BLOCK, EU);
        guard(backup, EU, clock).beforeAcquisition();
    }

    @Test
    void aTableCopiedIntoASecondStackGrantsNothingAndTheFirstKeepsGranting() {
        guard(eu, EU, clock).beforeAcquisition();
        RegionTable copy = copyOf(eu);

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, () -> guard(copy, EU, clock).beforeAcquisition());

        assertTrue(refused.getMessage().contains("another lease table") || refused.getMessage().contains("copy"), refused.getMessage());
        guard(eu, EU, clock).beforeAcquisition();
        assertEquals(eu.markers.table(), registry.claims().get(BLOCK).current().table());
    }

    @Test
    void aRecreatedSameNamedStackGoesThroughReleaseAndClaimAndTheFloorHolds() {
        guard(eu, EU, clock).beforeAcquisition();
        Slot slot = BLOCK.slots().slots().get(9);
        Lease before = eu.store.tryAcquire(slot, TOKEN_A, "eu agent", T, T + 60_000).get();
        RegionTable again = recreated(eu);

        assertThrows(BlockNotClaimedException.class, () -> guard(again, EU, clock).beforeAcquisition(),
                "a new table of the same stack name inherits no claim");
        assertThrows(dev.snowid.region.BlockClaimedException.class, () -> handover(again, clock).release(BLOCK, EU),
                "a release from another table needs the operator's word that the claim's table is gone");
        clock.set(T + 1_000);
        long until = handover(again, clock).release(BLOCK, EU, true);
        handover(again, clock).claimAgain(BLOCK, EU);
        guard(again, EU, clock).beforeAcquisition();

        assertTrue(until >= before.window().expiresAt() + dev.snowid.lease.LeaseTerms.MAX_CLOCK_SKEW_MILLIS, "until " + until);
        assertFalse(again.store.tryAcquire(slot, TOKEN_B, "eu again", T + 61_000, T + 121_000).isPresent(),
                "nothing is issued below the deleted table's leases");
        Lease after = again.store.tryAcquire(slot, TOKEN_B, "eu again", until + 1, until + 60_000).get();
        assertEquals(until, after.window().floor());
    }

    @Test
    void theRegistryIsAskedAgainAfterTheConfirmationIntervalAndARegistryThatMovedTheClaimStopsGrantsAndRenewals() {
        RegionGuard guard = guard(eu, EU, clock);
        guard.beforeAcquisition();
        RegionTable copy = copyOf(eu);
        // An operator states the claim's table deleted while it still serves: the registry moves the claim.
        handover(copy, clock).release(BLOCK, EU, true);

        guard.beforeAcquisition();
        guard.beforeRenewal();
        clock.set(T + RegionGuard.CONFIRMATION_MILLIS);

        assertThrows(BlockNotClaimedException.class, guard::beforeAcquisition);
        assertThrows(BlockNotClaimedException.class, guard::beforeRenewal);
        assertEquals(RegionGuard.State.REFUSED, guard.state());
    }
}
