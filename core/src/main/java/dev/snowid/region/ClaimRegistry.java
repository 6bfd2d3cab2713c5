package dev.snowid.region;

import java.util.Map;

/**
 * The claim registry: one item per {@link Block}, in one table of one region, read and written
 * with strongly consistent, conditional single-item writes. The lease table's own assumption
 * (a conditional write is atomic and linearizable per item) is all a claim needs: two claimants
 * racing for one free block send one write each, and exactly one succeeds.
 *
 * <p>Implementations throw {@link dev.snowid.lease.LeaseStoreUnavailableException} when the
 * registry cannot be reached.
 */
public interface ClaimRegistry {

    /**
     * Claims {@code block} for {@code claimant}'s lease table {@code table} under {@code claimId}, in
     * one conditional write: if the block is free; if the claim in force has this {@code claimId}
     * already (a retried write), nothing changes; a claim in force of the same claimant made before
     * claims had ids is bound to this id and table. Anything else is refused, a claim of the same
     * claimant's name from another table included (a copied or recreated table).
     *
     * @param claimId a fresh random id ({@link dev.snowid.internal.HexToken}); the table's marker records it
     * @param table   the lease table's identity ({@link ClaimMarkers#table()})
     * @param now     unix ms, recorded as the claim's time when it is new (for people)
     * @return the block's claims after the write; its {@link BlockClaims#floor()} is where this claim's IDs start
     * @throws BlockClaimedException when another claim holds the block (the message names both)
     */
    BlockClaims claim(Block block, Claimant claimant, String claimId, String table, long now);

    /**
     * Ends {@code claimant}'s claim of {@code block} in one conditional write: the claim goes to the
     * block's history with the range {@code [floor, until)}, and the block's floor becomes {@code until}.
     *
     * @param until unix ms: every ID of the claim lies below it (the highest lease expiry its region left); at least the floor
     * @throws BlockClaimedException when {@code claimant} does not hold the block, or its claim changed meanwhile
     */
    BlockClaims release(Block block, Claimant claimant, long until);

    /** Every block's claims, in one consistent read; blocks never claimed are {@link BlockClaims#unclaimed}. */
    Map<Block, BlockClaims> claims();
}
