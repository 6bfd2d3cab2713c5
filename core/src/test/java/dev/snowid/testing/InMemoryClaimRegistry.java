package dev.snowid.testing;

import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.Claim;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A claim registry in memory, for unit tests of the region logic only; it passes the same
 * {@link ClaimRegistryContract} as the registry on DynamoDB. One lock stands for DynamoDB's
 * per-item atomicity.
 */
public final class InMemoryClaimRegistry implements ClaimRegistry {

    private final Map<Block, BlockClaims> blocks = new TreeMap<Block, BlockClaims>();
    private volatile boolean unavailable;

    /** While set, every call fails as an unreachable registry does (the registry's region is down). */
    public InMemoryClaimRegistry setUnavailable(boolean unavailable) {
        this.unavailable = unavailable;
        return this;
    }

    @Override
    public synchronized BlockClaims claim(Block block, Claimant claimant, String claimId, String table, long now) {
        reachable();
        BlockClaims claims = claimsOf(block);
        Claim current = claims.current();
        if (current != null && claimId.equals(current.claimId())) {
            return claims;
        }
        boolean legacy = current != null && current.claimId() == null && current.claimant().equals(claimant);
        if (current != null && !legacy) {
            throw new BlockClaimedException(block + " is claimed by " + current + ", not free for " + claimant, claims);
        }
        List<Claim> more = new ArrayList<Claim>(claims.claims());
        if (legacy) {
            more.remove(more.size() - 1);
        }
        more.add(new Claim(claimant, claims.floor(), Claim.OPEN, legacy ? current.claimedAt() : now, claimId, table));
        BlockClaims claimed = new BlockClaims(block, more, claims.floor());
        blocks.put(block, claimed);
        return claimed;
    }

    @Override
    public synchronized BlockClaims release(Block block, Claimant claimant, long until) {
        reachable();
        BlockClaims claims = claimsOf(block);
        Claim current = claims.current();
        if (current == null || !current.claimant().equals(claimant)) {
            throw new BlockClaimedException(block + " is not claimed by " + claimant, claims);
        }
        if (until < current.from()) {
            throw new IllegalArgumentException("a claim cannot end (" + until + ") before it started (" + current.from() + ")");
        }
        List<Claim> ended = new ArrayList<Claim>(claims.claims());
        ended.set(ended.size() - 1, new Claim(claimant, current.from(), until, current.claimedAt(), current.claimId(), current.table()));
        BlockClaims released = new BlockClaims(block, ended, until);
        blocks.put(block, released);
        return released;
    }

    @Override
    public synchronized Map<Block, BlockClaims> claims() {
        reachable();
        Map<Block, BlockClaims> all = new TreeMap<Block, BlockClaims>();
        for (int i = 0; i < Block.COUNT; i++) {
            all.put(Block.of(i), claimsOf(Block.of(i)));
        }
        return all;
    }

    /** Puts {@code claimant}'s claim in force as a registry written before claims had ids holds it: no id, no table. */
    public synchronized void claimWithoutId(Block block, Claimant claimant, long now) {
        BlockClaims claims = claimsOf(block);
        List<Claim> more = new ArrayList<Claim>(claims.claims());
        more.add(new Claim(claimant, claims.floor(), Claim.OPEN, now));
        blocks.put(block, new BlockClaims(block, more, claims.floor()));
    }

    private BlockClaims claimsOf(Block block) {
        BlockClaims claims = blocks.get(block);
        return claims == null ? BlockClaims.unclaimed(block) : claims;
    }

    private void reachable() {
        if (unavailable) {
            throw new LeaseStoreUnavailableException("the claim registry is unavailable (a test's fault)", 1_000, null);
        }
    }
}
