package dev.snowid.region;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.internal.HexToken;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStore;
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
 * <li><b>claim</b>: the registry's conditional write, then every free slot of the block is
 *     <em>seeded</em> to start at the registry's floor (acquired and released as if the last ID
 *     was issued at {@code floor - 1}: the release rule then leaves {@code expiresAt = max(expiry, floor)},
 *     and the next acquisition copies that into its floor), then the marker;</li>
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
     * A new claim of {@code block} for {@code claimant}: registry, seed, marker. Run again, it
     * changes nothing (the claim is the claimant's, seeded slots stay at or above the floor).
     *
     * @return the marker as the table holds it: not confirming when one was there already (released, another claimant's)
     * @throws BlockClaimedException when the registry gives the block to another claimant
     */
    public ClaimMarker claim(Block block, Claimant claimant) {
        BlockClaims claims = registry.claim(block, claimant, clock.millis());
        seed(block, claims.floor());
        return markers.markClaimed(block, claimant, claims.floor(), clock.millis(), false);
    }

    /**
     * An operator's claim of a block this table released before: the registry's claim, the
     * retired slots freed (their retirement leases released, nothing issued), the seed, and the
     * marker claimed again.
     *
     * @throws BlockClaimedException when the registry gives the block to another claimant
     */
    public ClaimMarker claimAgain(Block block, Claimant claimant) {
        BlockClaims claims = registry.claim(block, claimant, clock.millis());
        Optional<ClaimMarker> marker = markers.read(block);
        if (marker.isPresent() && marker.get().state() == ClaimMarker.State.RELEASED && marker.get().retiredBy() != null) {
            for (HeldSlot held : table.heldSlots()) {
                if (block.contains(held.slot()) && held.expiresAt() >= RETIRED_UNTIL) {
                    table.release(held.slot(), marker.get().retiredBy(), held.fence(), 0);
                }
            }
        }
        seed(block, claims.floor());
        return markers.markClaimed(block, claimant, claims.floor(), clock.millis(), true);
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
                table.release(slot, owner, seeding.get().fence(), floor - 1);
            }
        }
    }

    /**
     * Releases {@code claimant}'s claim of {@code block}: refused while a lease of the block is in
     * force in this table; run again after a failure, it completes what the first run began.
     *
     * @return the claim's end: every ID it issued lies below it, and the next claim starts there
     * @throws BlockClaimedException when the registry does not give the block to {@code claimant}
     * @throws LiveLeasesException when leases of the block are in force (the message lists them)
     */
    public long release(Block block, Claimant claimant) {
        BlockClaims claims = registry.claims().get(block);
        if (claims == null || !claims.claimedBy(claimant)) {
            Claim current = claims == null ? null : claims.current();
            throw new BlockClaimedException(block + " is not claimed by " + claimant + " in the registry: "
                    + (current == null ? "it is free" : "it is claimed by " + current.claimant()), claims);
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
        long until = claims.floor();
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
