package dev.snowid.region;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.internal.HexToken;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseTerms;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A block changing hands between regions, as writes to the registry and to one region's lease
 * table (docs/protocol.md, "Regions"). Only the lease protocol's own writes touch the slots:
 * <ul>
 * <li><b>claim</b>: the registry's conditional write, binding the claim to a fresh claim id and to
 *     this lease table's identity, then every free slot of the block is
 *     <em>seeded</em> to start at the registry's floor (acquired and released as if the last ID
 *     was issued at {@code floor - 1}: the release rule then leaves {@code expiresAt = max(expiry, floor)},
 *     and the next acquisition copies that into its floor), then the marker with the claim id;</li>
 * <li><b>release</b>: refused while a lease of the block is in force; else the marker turns
 *     released, every slot is <em>retired</em> (acquired with a lease that never runs out, so no
 *     earlier holder can renew and nobody can acquire it again), and the registry records the
 *     highest expiry the retirement found as the claim's end and the next claim's floor.</li>
 * </ul>
 */
public final class BlockHandover {

    /** The expiry of a retired slot's lease: 9999-12-31T23:59:59.999Z, which no clock reaches. */
    public static final long RETIRED_UNTIL = 253_402_300_799_999L;

    private final ClaimRegistry registry;
    private final LeaseStore table;
    private final ClaimMarkers markers;
    private final WallClock clock;

    /**
     * @param table   the region's lease table, as the lease protocol writes it
     * @param markers the claim markers in that same table
     */
    public BlockHandover(ClaimRegistry registry, LeaseStore table, ClaimMarkers markers, WallClock clock) {
        this.registry = registry;
        this.table = table;
        this.markers = markers;
        this.clock = clock;
    }

    /**
     * A new claim of {@code block} for {@code claimant}'s lease table, under a fresh claim id:
     * registry, seed, marker. Where the registry holds a claim of the same claimant made before
     * claims had ids, and this table's marker records it, both are bound to the new id.
     *
     * @return the marker as the table holds it: not recording the claim when one was there already
     * @throws BlockClaimedException when the registry gives the block to another claim
     */
    public ClaimMarker claim(Block block, Claimant claimant) {
        String claimId = HexToken.draw(new SecureRandom());
        BlockClaims claims = registry.claim(block, claimant, claimId, markers.table(), clock.millis());
        seed(block, claims.floor());
        return markers.markClaimed(block, claimant, claimId, claims.floor(), clock.millis(), false);
    }

    /**
     * Finishes a claim the registry holds for this table whose marker was never written (its
     * claimer stopped half way, or another environment of the stack is writing it now): seed, marker.
     */
    ClaimMarker complete(Block block, Claimant claimant, Claim current, long floor) {
        seed(block, floor);
        return markers.markClaimed(block, claimant, current.claimId(), floor, clock.millis(), false);
    }

    /**
     * An operator's claim of a block this table released before (or whose marker is left from an
     * ended claim, as in a table restored from before a release): the registry's claim, the
     * retired slots freed (their retirement leases released, nothing issued), the seed, and the
     * marker replaced by the new claim's. Run again after a failure, it completes what the first run
     * began: the registry's claim in force for this table is taken up, not refused.
     *
     * @throws BlockClaimedException when the registry gives the block to another claim
     */
    public ClaimMarker claimAgain(Block block, Claimant claimant) {
        Claim inForce = registry.claims().get(block).current();
        String claimId = inForce != null && inForce.heldBy(claimant, markers.table()) ? inForce.claimId() : HexToken.draw(new SecureRandom());
        BlockClaims claims = registry.claim(block, claimant, claimId, markers.table(), clock.millis());
        Optional<ClaimMarker> marker = markers.read(block);
        if (marker.isPresent() && marker.get().state() == ClaimMarker.State.RELEASED && marker.get().retiredBy() != null) {
            for (HeldSlot held : table.heldSlots()) {
                if (block.contains(held.slot()) && held.expiresAt() >= RETIRED_UNTIL) {
                    table.release(held.slot(), marker.get().retiredBy(), held.fence(), 0);
                }
            }
        }
        seed(block, claims.floor());
        return markers.markClaimed(block, claimant, claimId, claims.floor(), clock.millis(), true);
    }

    /**
     * Every free slot of the block starts at {@code floor} or later. A slot held now is left alone:
     * it was leased after the marker, so after a complete seed.
     */
    void seed(Block block, long floor) {
        if (floor <= 0) {
            return; // the block's first claim: no other region issued from it
        }
        SecureRandom random = new SecureRandom();
        for (Slot slot : block.slots().slots()) {
            long now = clock.millis();
            String owner = HexToken.draw(random);
            Optional<Lease> seeding = table.tryAcquire(slot, owner, "seeding: " + block + " starts at " + floor, now,
                    Math.max(floor, now + 1));
            if (seeding.isPresent()) {
                try {
                    table.release(slot, owner, seeding.get().fence(), floor - 1);
                } catch (LeaseLostException takenAfterItsEnd) {
                    // The seeding lease ran out (it may end 1 ms after now) and another seeder or holder took the slot:
                    // its acquisition copied an expiry of at least the floor, so the slot is seeded all the same.
                }
            }
        }
    }

    /**
     * Releases {@code claimant}'s claim of {@code block} made from this table: refused while a
     * lease of the block is in force in this table; run again after a failure, it completes what
     * the first run began.
     *
     * @return the claim's end: every ID it issued lies below it, and the next claim starts there
     * @throws BlockClaimedException when the registry does not give the block to {@code claimant},
     *         or gives it to a claim made from another lease table
     * @throws LiveLeasesException when leases of the block are in force (the message lists them)
     */
    public long release(Block block, Claimant claimant) {
        return release(block, claimant, false);
    }

    /**
     * As {@link #release(Block, Claimant)}; with {@code claimTableDeleted}, also a claim made from
     * another lease table of the same stack name, which the operator states was deleted (a
     * recreated stack). That table's leases cannot be read, so the claim's end is put past any
     * lease it could hold: now plus the longest lease, the largest tolerated skew and the
     * guard's confirmation interval.
     */
    public long release(Block block, Claimant claimant, boolean claimTableDeleted) {
        BlockClaims claims = registry.claims().get(block);
        Claim current = claims == null ? null : claims.current();
        if (current == null || !current.claimant().equals(claimant)) {
            throw new BlockClaimedException(block + " is not claimed by " + claimant + " in the registry: "
                    + (current == null ? "it is free" : "it is claimed by " + current.claimant()), claims);
        }
        String here = markers.table();
        boolean otherTable = current.table() != null && !current.table().equals(here);
        if (otherTable && !claimTableDeleted) {
            throw new BlockClaimedException(block + " is claimed for " + claimant + " from another lease table (" + current.table()
                    + "), not from this one (" + here + "): if that table was deleted (a recreated stack), release with"
                    + " --claim-table-deleted; if it still serves (a stack of the same name elsewhere), leave the block to it"
                    + " and give this stack another (docs/multi-region.md)", claims);
        }
        long now = clock.millis();
        Map<Slot, HeldSlot> held = heldIn(block);
        List<HeldSlot> live = new ArrayList<HeldSlot>();
        for (HeldSlot slot : held.values()) {
            if (slot.heldAt(now) && slot.expiresAt() < RETIRED_UNTIL) {
                live.add(slot);
            }
        }
        if (!live.isEmpty()) {
            throw new LiveLeasesException(block, live, now);
        }
        Optional<ClaimMarker> before = markers.read(block);
        String token = before.isPresent() && before.get().retiredBy() != null ? before.get().retiredBy()
                : HexToken.draw(new SecureRandom());
        String retiredBy = markers.markReleased(block, claimant, token, now).retiredBy();
        long until = otherTable ? Math.max(claims.floor(), now + LeaseTerms.MAX_LEASE_MILLIS + LeaseTerms.MAX_CLOCK_SKEW_MILLIS
                + RegionGuard.CONFIRMATION_MILLIS) : claims.floor();
        String holder = "retired: " + block + " released by " + claimant + " at " + Instant.ofEpochMilli(now);
        Map<Slot, HeldSlot> reread = null;
        for (Slot slot : block.slots().slots()) {
            Optional<Lease> retired = table.tryAcquire(slot, retiredBy, holder, clock.millis(), RETIRED_UNTIL);
            if (retired.isPresent()) {
                until = Math.max(until, retired.get().window().floor());
                continue;
            }
            reread = reread == null ? heldIn(block) : reread;
            HeldSlot found = reread.get(slot);
            if (found == null || found.expiresAt() < RETIRED_UNTIL) {
                List<HeldSlot> appeared = new ArrayList<HeldSlot>();
                if (found != null) {
                    appeared.add(found);
                }
                throw new LiveLeasesException(block, appeared, clock.millis());
            }
            until = Math.max(until, found.floor());
        }
        registry.release(block, claimant, until);
        return until;
    }

    ClaimRegistry registry() {
        return registry;
    }

    ClaimMarkers markers() {
        return markers;
    }

    WallClock clock() {
        return clock;
    }

    private Map<Slot, HeldSlot> heldIn(Block block) {
        Map<Slot, HeldSlot> held = new HashMap<Slot, HeldSlot>();
        for (HeldSlot slot : table.heldSlots()) {
            if (block.contains(slot.slot())) {
                held.put(slot.slot(), slot);
            }
        }
        return held;
    }
}
