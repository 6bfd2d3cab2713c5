package dev.snowid.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.RequestClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conditions every {@link LeaseStore} must keep, whatever it runs on. The in-memory fake
 * runs it ({@code InMemoryLeaseStoreTest}); a real store's test extends it too, against a real
 * engine, so the fake and the table are held to the same rules.
 *
 * <p>Times are fixed unix ms passed in as {@code now}: the conditions compare with the caller's
 * clock, not the store's.
 */
public abstract class LeaseStoreContract {

    protected static final long T = 1_700_000_000_000L;
    private static final Slot SLOT = Slot.of(3, 17);
    private static final String ME = "0123456789abcdef0123456789abcdef";
    private static final String OTHER = "fedcba9876543210fedcba9876543210";
    private static final String REQUEST = "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb";
    private static final String OTHER_REQUEST = "ccccccccccccccccdddddddddddddddd";

    private LeaseStore store;

    /** A store on an empty table; each test gets a new one. */
    protected abstract LeaseStore newStore();

    @BeforeEach
    void emptyTable() {
        store = newStore();
    }

    @Test
    void firstAcquisitionOfASlotHasFenceOneAndFloorZero() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        assertEquals(SLOT, lease.slot());
        assertEquals(ME, lease.owner());
        assertEquals(1, lease.fence());
        assertEquals(LeaseWindow.of(0, T + 60_000), lease.window());
    }

    @Test
    void aLiveLeaseCannotBeTakenUntilNowIsPastItsExpiry() {
        store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 1, T + 60_001).isPresent());
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 60_000, T + 120_000).isPresent(), "expiresAt == now is not expired");
        Lease taken = store.tryAcquire(SLOT, OTHER, "test", T + 60_001, T + 120_001).get();
        assertEquals(2, taken.fence());
        assertEquals(LeaseWindow.of(T + 60_000, T + 120_001), taken.window(), "the floor is the previous holder's expiry");
    }

    @Test
    void renewalNeedsTheOwnerAndTheFence() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, OTHER, lease.fence(), T + 90_000));
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, ME, lease.fence() + 1, T + 90_000));
        assertThrows(LeaseLostException.class, () -> store.renew(Slot.of(3, 18), ME, lease.fence(), T + 90_000));
        Lease renewed = store.renew(SLOT, ME, lease.fence(), T + 90_000);
        assertEquals(LeaseWindow.of(0, T + 90_000), renewed.window());
        assertEquals(lease.fence(), renewed.fence());
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 60_001, T + 120_000).isPresent(), "the renewed expiry is in force");
    }

    @Test
    void aRenewalNeverShortensAStoredExpiry() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        store.renew(SLOT, ME, lease.fence(), T + 90_000);
        // Asked by a clock behind the one that renewed last (another function environment, say).
        Lease asked = store.renew(SLOT, ME, lease.fence(), T + 70_000);
        assertEquals(LeaseWindow.of(0, T + 90_000), asked.window(), "the later stored expiry is kept, and returned");
        assertEquals(lease.fence(), asked.fence());
        assertEquals(T + 90_000, store.ownedExpiries().get(SLOT));
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 80_000, T + 140_000).isPresent(),
                "the slot stays held until the later expiry");
        assertEquals(LeaseWindow.of(0, T + 90_000), store.renew(SLOT, ME, lease.fence(), 1).window(),
                "not even an expiry below the floor shortens it");
    }

    @Test
    void anExpiredLeaseCanStillBeRenewedWhileNobodyTookIt() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        assertEquals(T + 200_000, store.renew(SLOT, ME, lease.fence(), T + 200_000).window().expiresAt());
    }

    @Test
    void aTakenOverLeaseIsLost() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        store.tryAcquire(SLOT, OTHER, "test", T + 70_000, T + 130_000).get();
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, ME, lease.fence(), T + 90_000));
        assertThrows(LeaseLostException.class, () -> store.release(SLOT, ME, lease.fence(), T + 50_000));
    }

    @Test
    void releaseFreesTheSlotAtOnceAndTheNextFloorIsAfterTheLastIssuedId() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        store.release(SLOT, ME, lease.fence(), T + 1_234);
        assertFalse(store.ownedExpiries().containsKey(SLOT), "a released slot has no owner");
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 1_235, T + 61_235).isPresent(), "free only after last issued + 1");
        Lease next = store.tryAcquire(SLOT, OTHER, "test", T + 1_236, T + 61_236).get();
        assertEquals(T + 1_235, next.window().floor());
        assertEquals(lease.fence() + 1, next.fence());
    }

    @Test
    void releaseNeverMovesTheExpiryBelowTheFloorNorAboveTheLeasesEnd() {
        store.tryAcquire(SLOT, OTHER, "test", T, T + 60_000).get();
        Lease lease = store.tryAcquire(SLOT, ME, "test", T + 60_001, T + 120_000).get();
        store.release(SLOT, ME, lease.fence(), 0);
        assertEquals(T + 60_000, store.tryAcquire(SLOT, OTHER, "test", T + 60_002, T + 120_000).get().window().floor());

        Lease third = store.renew(SLOT, OTHER, lease.fence() + 1, T + 130_000);
        store.release(SLOT, OTHER, third.fence(), T + 999_999);
        assertEquals(T + 130_000, store.tryAcquire(SLOT, ME, "test", T + 130_001, T + 190_000).get().window().floor());
    }

    @Test
    void theLargestLastIssuedMsDoesNotWrapTheReleaseBelowTheFloor() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        store.release(SLOT, ME, lease.fence(), Long.MAX_VALUE);
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 1, T + 60_001).isPresent(),
                "last issued past the expiry: the slot stays closed until the lease's end, not reopened at its floor");
        assertEquals(T + 60_000, store.tryAcquire(SLOT, OTHER, "test", T + 60_001, T + 120_000).get().window().floor());
    }

    /**
     * The store writes exactly {@link LeaseWindow#expiryOnRelease(long)}, the one release rule, at
     * every boundary: nothing issued, before the floor, on it, inside, on and past the expiry, and
     * at the largest ms. The next holder's floor shows what was written.
     */
    @Test
    void releaseWritesTheReleaseRulesExpiryAtEveryBoundary() {
        long floor = T + 60_000;
        long end = T + 120_000;
        long[] lastIssued = {0, 1, floor - 2, floor - 1, floor, floor + 1, end - 2, end - 1, end, end + 1,
            Long.MAX_VALUE - 1, Long.MAX_VALUE};
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i <= lastIssued.length; i++) {
            Slot slot = Slot.ofIndex(i);
            Lease lease;
            long last;
            if (i == lastIssued.length) { // a slot's first lease: floor 0, nothing issued
                lease = store.tryAcquire(slot, ME, "test", T, T + 60_000).get();
                last = 0;
            } else {
                store.tryAcquire(slot, OTHER, "test", T, floor).get();
                lease = store.tryAcquire(slot, ME, "test", floor + 1, end).get();
                last = lastIssued[i];
            }
            store.release(slot, ME, lease.fence(), last);
            long written = store.tryAcquire(slot, OTHER, "test", end + 1, end + 60_000).get().window().floor();
            long rule = lease.window().expiryOnRelease(last);
            if (written != rule) {
                wrong.add("window " + lease.window() + ", last issued " + last + ": wrote " + written + ", the rule says " + rule);
            }
        }
        assertEquals(new ArrayList<String>(), wrong);
    }

    @Test
    void aNegativeLastIssuedMsIsRefusedAndTheLeaseKept() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        assertThrows(IllegalArgumentException.class, () -> store.release(SLOT, ME, lease.fence(), -1));
        assertEquals(T + 60_000, store.ownedExpiries().get(SLOT));
    }

    @Test
    void aRepeatedReleaseByTheSameOwnerSucceedsAndChangesNothing() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        store.release(SLOT, ME, lease.fence(), T + 10);
        store.release(SLOT, ME, lease.fence(), T + 10); // its first answer was lost: not a lost lease
        store.release(SLOT, ME, lease.fence(), T + 30_000);
        assertFalse(store.tryAcquire(SLOT, OTHER, "test", T + 11, T + 60_000).isPresent(), "the first release's expiry stands");
        assertEquals(LeaseWindow.of(T + 11, T + 60_012), store.tryAcquire(SLOT, OTHER, "test", T + 12, T + 60_012).get().window());
    }

    @Test
    void releaseOfAReleasedLeaseIsLostForAnotherOwnerOrFenceAndRenewalIsLost() {
        Lease lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000).get();
        store.release(SLOT, ME, lease.fence(), T + 10);
        assertThrows(LeaseLostException.class, () -> store.release(SLOT, OTHER, lease.fence(), T + 10));
        assertThrows(LeaseLostException.class, () -> store.release(SLOT, ME, lease.fence() + 1, T + 10));
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, ME, lease.fence(), T + 90_000));
        store.tryAcquire(SLOT, OTHER, "test", T + 20, T + 60_000).get();
        assertThrows(LeaseLostException.class, () -> store.release(SLOT, ME, lease.fence(), T + 10), "the slot was taken since");
    }

    @Test
    void aRequestIdIsClaimedOnceAndTheClaimSaysForWhom() {
        RequestClaim alice = store.claim(REQUEST, "alice", ME, T + 60_000);
        assertEquals(REQUEST + " alice " + ME + " none", render(alice), "the first claim is stored as made");
        assertTrue(alice.isFor(REQUEST, "alice"));
        RequestClaim mallory = store.claim(REQUEST, "mallory", OTHER, T + 60_000);
        assertEquals(render(alice), render(mallory), "a later claim gets the earlier one, whoever made it");
        assertFalse(mallory.isFor(REQUEST, "mallory"));
        assertEquals(render(alice), render(store.claim(REQUEST, "alice", OTHER, T + 60_000)), "the same holder's too");
        assertEquals(OTHER_REQUEST + " mallory " + OTHER + " none", render(store.claim(OTHER_REQUEST, "mallory", OTHER, T + 60_000)),
                "another id is another claim");
        assertEquals(render(alice), render(store.claim(REQUEST, "alice (with a longer name)", OTHER, T + 60_000)),
                "bound to exactly the holder's text");
    }

    @Test
    void claimsAreNeverTakenForSlots() {
        for (String id : new String[] {REQUEST, OTHER_REQUEST, "00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff",
            "00000000000000000000000000000001", "000000000000000000000000000003ff", "000000000000000000000000000003fe"}) {
            store.claim(id, "alice", ME, T + 60_000);
        }
        assertEquals(0, store.ownedExpiries().size(), store.ownedExpiries().toString());
        assertEquals(0, store.heldSlots().size(), store.heldSlots().toString());
        for (int index : new int[] {0, 1, 2, 3, Slot.COUNT - 2, Slot.COUNT - 1}) {
            Lease lease = store.tryAcquire(Slot.ofIndex(index), OTHER, "test", T, T + 60_000).get();
            assertEquals(1, lease.fence(), "slot " + index + " was never held: no claim is its item");
            assertEquals(LeaseWindow.of(0, T + 60_000), lease.window());
        }
        assertEquals(6, store.heldSlots().size());
    }

    @Test
    void aGrantIsRecordedOnlyOnTheClaimAsItWasRead() {
        RequestClaim claimed = store.claim(REQUEST, "alice", ME, T + 60_000);
        Lease lease = store.tryAcquire(SLOT, ME, "alice", T, T + 60_000, REQUEST).get();
        assertTrue(store.recordGrant(claimed, lease));
        RequestClaim recorded = store.claim(REQUEST, "alice", OTHER, T + 60_000);
        assertEquals(REQUEST + " alice " + ME + " " + SLOT, render(recorded));
        assertFalse(store.recordGrant(claimed, lease), "the claim records a grant now: it is no longer as read");

        // A retry in the place of the first attempt: another slot, another token, recorded over the claim as read.
        Slot second = Slot.of(3, 18);
        Lease retried = store.tryAcquire(second, OTHER, "alice", T, T + 60_000, REQUEST).get();
        assertTrue(store.recordGrant(recorded, retried));
        assertEquals(REQUEST + " alice " + OTHER + " " + second, render(store.claim(REQUEST, "alice", ME, T + 60_000)));
        assertFalse(store.recordGrant(recorded, lease), "a superseded attempt cannot record its grant");
        assertFalse(store.recordGrant(new RequestClaim(OTHER_REQUEST, "alice", ME, null), lease), "no claim, no record");
        assertEquals(OTHER_REQUEST + " bob " + OTHER + " none", render(store.claim(OTHER_REQUEST, "bob", OTHER, T + 60_000)),
                "and none was made by trying");
    }

    @Test
    void theRecordedGrantIsAnsweredWhileItsSlotIsExactlyAsGranted() {
        RequestClaim claimed = store.claim(REQUEST, "alice", ME, T + 60_000);
        Lease granted = store.tryAcquire(SLOT, ME, "alice", T, T + 60_000, REQUEST).get();
        assertFalse(store.grantedFor(claimed, T + 1_000).isPresent(), "a claim that records no grant answers none");
        store.recordGrant(claimed, granted);
        RequestClaim recorded = store.claim(REQUEST, "alice", OTHER, T + 60_000);
        assertEquals(render(granted), render(store.grantedFor(recorded, T + 1_000)));
        assertEquals(render(granted), render(store.grantedFor(recorded, T + 60_000)), "up to its expiry");
        assertFalse(store.grantedFor(recorded, T + 60_001).isPresent(), "not once it expired");
        assertFalse(store.grantedFor(new RequestClaim(REQUEST, "alice", OTHER, SLOT), T + 1_000).isPresent(),
                "the slot must carry the claim's owner token");
        assertFalse(store.grantedFor(new RequestClaim(OTHER_REQUEST, "alice", ME, SLOT), T + 1_000).isPresent(),
                "and the claim's request id");
        store.tryAcquire(Slot.of(3, 18), OTHER, "test", T, T + 60_000, null).get();
        assertEquals(render(granted), render(store.grantedFor(recorded, T + 1_000)), "a grant on another slot is not it");
    }

    @Test
    void theRecordOfAGrantOnItsSlotEndsWithTheFirstRenewalTheReleaseOrATakeover() {
        Lease renewed = store.tryAcquire(SLOT, ME, "test", T, T + 60_000, REQUEST).get();
        store.renew(SLOT, ME, renewed.fence(), T + 90_000);
        assertFalse(store.grantedFor(new RequestClaim(REQUEST, "test", ME, SLOT), T + 1_000).isPresent(),
                "renewed: the holder has its answer, and the lease changed");

        Slot second = Slot.of(3, 18);
        Lease released = store.tryAcquire(second, ME, "test", T, T + 60_000, OTHER_REQUEST).get();
        store.release(second, ME, released.fence(), 0);
        assertFalse(store.grantedFor(new RequestClaim(OTHER_REQUEST, "test", ME, second), T + 1_000).isPresent(), "released");

        Slot third = Slot.of(3, 19);
        String third1 = "11111111111111112222222222222222";
        store.tryAcquire(third, ME, "test", T, T + 1_000, third1).get();
        Lease takeover = store.tryAcquire(third, OTHER, "test", T + 2_000, T + 60_000, null).get();
        assertFalse(store.grantedFor(new RequestClaim(third1, "test", ME, third), T).isPresent(), "taken over by a grant without an id");
        assertEquals(2, takeover.fence());
    }

    private static String render(RequestClaim claim) {
        return claim.requestId() + " " + claim.holder() + " " + claim.owner() + " " + claim.slot().map(Slot::toString).orElse("none");
    }

    private static String render(Lease lease) {
        return lease.toString() + " " + lease.owner();
    }

    private static String render(Optional<Lease> lease) {
        return lease.map(LeaseStoreContract::render).orElse("nothing");
    }

    @Test
    void theScanListsEveryOwnedSlotWithItsExpiry() {
        Slot a = Slot.of(0, 0);
        Slot b = Slot.of(0, 1);
        Slot c = Slot.of(1, 0);
        store.tryAcquire(a, ME, "test", T, T + 60_000).get();
        store.tryAcquire(b, ME, "test", T, T + 10_000).get();
        Lease released = store.tryAcquire(c, ME, "test", T, T + 60_000).get();
        store.release(c, ME, released.fence(), 0);
        Map<Slot, Long> owned = store.ownedExpiries();
        assertEquals(2, owned.size(), owned.toString());
        assertEquals(T + 60_000, owned.get(a));
        assertEquals(T + 10_000, owned.get(b), "expired but not released: still listed, with its expiry");
    }

    @Test
    void theHeldSlotsListHolderFenceAndWindowOfEveryOwnedSlot() {
        Slot a = Slot.of(0, 0);
        Slot b = Slot.of(1, 2);
        store.tryAcquire(a, ME, "orders-service host-a", T, T + 60_000).get();
        Lease second = store.tryAcquire(b, ME, "billing", T, T + 10_000).get();
        store.release(b, ME, second.fence(), T + 5);
        Lease again = store.tryAcquire(b, ME, "billing again", T + 20_000, T + 80_000).get();
        java.util.List<dev.snowid.lease.HeldSlot> held = store.heldSlots();
        assertEquals(2, held.size(), held.toString());
        dev.snowid.lease.HeldSlot first = held.stream().filter(h -> h.slot().equals(a)).findFirst().get();
        dev.snowid.lease.HeldSlot other = held.stream().filter(h -> h.slot().equals(b)).findFirst().get();
        assertEquals("orders-service host-a", first.holder());
        assertEquals(T + 60_000, first.expiresAt());
        assertEquals("billing again", other.holder());
        assertEquals(again.fence(), other.fence());
        assertEquals(again.window().floor(), other.floor(), "the floor is the released lease's end");
        assertEquals(T + 80_000, other.expiresAt());
    }

    @Test
    void theClockSkewIsUnknownUntilTheFirstAnswerAndAgainOnceForgotten() {
        assertFalse(store.clockSkewMillis().isPresent(), "no answer yet");
        Optional<Lease> lease = store.tryAcquire(SLOT, ME, "test", T, T + 60_000);
        assertTrue(lease.isPresent());
        OptionalLong skew = store.clockSkewMillis();
        assertTrue(skew.isPresent());
        // The engine runs with a synchronised clock: anything near a minute is a unit mistake (s for ms).
        assertTrue(Math.abs(skew.getAsLong()) < LeaseTerms.MAX_CLOCK_SKEW_MILLIS, "skew " + skew);
        store.forgetClockSkew();
        assertFalse(store.clockSkewMillis().isPresent(), "forgotten (a SnapStart restore): unknown until the next answer");
        store.ownedExpiries();
        assertTrue(store.clockSkewMillis().isPresent());
    }
}
