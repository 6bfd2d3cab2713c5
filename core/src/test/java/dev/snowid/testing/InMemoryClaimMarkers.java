package dev.snowid.testing;

import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.Claimant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** A lease table's claim markers in memory, with the conditions of the markers on DynamoDB; for unit tests only. */
public final class InMemoryClaimMarkers implements ClaimMarkers {

    private final Map<Block, ClaimMarker> markers = new HashMap<Block, ClaimMarker>();
    private volatile boolean unavailable;

    /** While set, every call fails as an unreachable lease table does. */
    public InMemoryClaimMarkers setUnavailable(boolean unavailable) {
        this.unavailable = unavailable;
        return this;
    }

    @Override
    public synchronized Optional<ClaimMarker> read(Block block) {
        reachable();
        return Optional.ofNullable(markers.get(block));
    }

    @Override
    public synchronized ClaimMarker markClaimed(Block block, Claimant claimant, long floor, long now, boolean replacingRelease) {
        reachable();
        ClaimMarker there = markers.get(block);
        boolean replaces = there == null || replacingRelease && there.state() == ClaimMarker.State.RELEASED
                && there.claimant().equals(claimant);
        if (replaces) {
            markers.put(block, new ClaimMarker(block, claimant, ClaimMarker.State.CLAIMED, floor, now, null));
        }
        return markers.get(block);
    }

    @Override
    public synchronized ClaimMarker markReleased(Block block, Claimant claimant, String retiredBy, long now) {
        reachable();
        ClaimMarker there = markers.get(block);
        if (there != null && !there.claimant().equals(claimant)) {
            throw new BlockClaimedException("this table's marker of " + block + " names " + there.claimant() + ", not " + claimant, null);
        }
        String token = there != null && there.retiredBy() != null ? there.retiredBy() : retiredBy;
        long floor = there == null ? 0 : there.floor();
        ClaimMarker released = new ClaimMarker(block, claimant, ClaimMarker.State.RELEASED, floor, now, token);
        markers.put(block, released);
        return released;
    }

    private void reachable() {
        if (unavailable) {
            throw new LeaseStoreUnavailableException("the lease table is unavailable (a test's fault)", 1_000, null);
        }
    }
}
