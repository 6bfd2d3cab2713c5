package dev.snowid.region;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A block's entry in the claim registry: its claims in order, the last one possibly in force, and
 * the floor the next claim starts at (the highest lease expiry of all released claims).
 */
public final class BlockClaims {

    private final Block block;
    private final List<Claim> claims;
    private final long floor;

    /**
     * @param claims oldest first; only the last may be open, and each starts where the one before ended
     * @param floor  where the claim in force started, or where the next one will
     */
    public BlockClaims(Block block, List<Claim> claims, long floor) {
        this.block = block;
        this.claims = Collections.unmodifiableList(new ArrayList<Claim>(claims));
        this.floor = floor;
        for (int i = 0; i < claims.size(); i++) {
            Claim claim = claims.get(i);
            if (claim.isOpen() && i != claims.size() - 1) {
                throw new IllegalArgumentException(block + ": only the last claim may be in force: " + claims);
            }
            if (i > 0 && claim.from() < claims.get(i - 1).until()) {
                throw new IllegalArgumentException(block + ": claim " + claim + " starts before the one before it ended: " + claims);
            }
        }
    }

    /** A block nobody has claimed yet. */
    public static BlockClaims unclaimed(Block block) {
        return new BlockClaims(block, Collections.<Claim>emptyList(), 0);
    }

    public Block block() {
        return block;
    }

    /** Every claim, oldest first. */
    public List<Claim> claims() {
        return claims;
    }

    /** The claim in force; null when the block is free. */
    public Claim current() {
        if (claims.isEmpty()) {
            return null;
        }
        Claim last = claims.get(claims.size() - 1);
        return last.isOpen() ? last : null;
    }

    /** Whether {@code claimant} holds the block now. */
    public boolean claimedBy(Claimant claimant) {
        Claim current = current();
        return current != null && current.claimant().equals(claimant);
    }

    /** Unix ms: where the claim in force started, or the next claim's IDs will start. */
    public long floor() {
        return floor;
    }

    /** The claim whose IDs an ID of this block issued at {@code unixMillis} belongs to; null when none covers it. */
    public Claim claimAt(long unixMillis) {
        for (Claim claim : claims) {
            if (claim.covers(unixMillis)) {
                return claim;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        Claim current = current();
        return block + (current == null ? ": free" : ": claimed by " + current.claimant()) + ", floor " + floor;
    }
}
