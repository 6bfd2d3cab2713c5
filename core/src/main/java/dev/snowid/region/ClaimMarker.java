package dev.snowid.region;

/**
 * What a region's own lease table remembers of its claim on a block: claimed (confirmed by the
 * registry: the stack leases without asking the registry again) or released (by an operator: the
 * stack refuses until an operator claims the block again). It lives in the lease table, beside
 * the slots it governs, so a stack with a confirmed claim keeps leasing while the registry's
 * region is down.
 */
public final class ClaimMarker {

    /** Whether the stack may lease from the block. */
    public enum State { CLAIMED, RELEASED }

    private final Block block;
    private final Claimant claimant;
    private final State state;
    private final long floor;
    private final long at;
    private final String retiredBy;
    private final String claimId;

    /**
     * @param floor     where the claim's IDs start (the registry's floor when it was confirmed)
     * @param at        unix ms of the last change, for people
     * @param retiredBy after a release: the owner token of the leases that retired the block's slots; else null
     * @param claimId   the registry's id of the claim this marker records; null for a marker written before claims had ids
     */
    public ClaimMarker(Block block, Claimant claimant, State state, long floor, long at, String retiredBy, String claimId) {
        this.block = block;
        this.claimant = claimant;
        this.state = state;
        this.floor = floor;
        this.at = at;
        this.retiredBy = retiredBy;
        this.claimId = claimId;
    }

    public Block block() {
        return block;
    }

    public Claimant claimant() {
        return claimant;
    }

    public State state() {
        return state;
    }

    /**
     * Whether this marker records {@code claim} as claimed: the registry's claim in force, for this
     * marker's claimant, with the same claim id. Only what the registry says counts: a marker is a cache.
     */
    public boolean records(Claim claim) {
        return state == State.CLAIMED && claim != null && claim.isOpen() && claimant.equals(claim.claimant())
                && claimId != null && claimId.equals(claim.claimId());
    }

    /** Whether this marker says the block is claimed for {@code claimant} (by the marker alone: see {@link #records}). */
    public boolean confirms(Claimant claimant) {
        return state == State.CLAIMED && this.claimant.equals(claimant);
    }

    /** The registry's id of the claim this marker records; null for a marker written before claims had ids. */
    public String claimId() {
        return claimId;
    }

    public long floor() {
        return floor;
    }

    public long at() {
        return at;
    }

    public String retiredBy() {
        return retiredBy;
    }

    @Override
    public String toString() {
        return block + " " + state.name().toLowerCase(java.util.Locale.ROOT) + " for " + claimant + " (floor " + floor + ", at " + at
                + (claimId == null ? "" : ", claim " + claimId) + ")";
    }
}
