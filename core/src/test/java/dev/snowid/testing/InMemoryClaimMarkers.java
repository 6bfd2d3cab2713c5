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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A lease table's claim markers in memory, with the conditions of the markers on DynamoDB; for unit
 * tests only. Each instance is a table of its own identity, as each DynamoDB table's ARN and
 * creation time are; {@link #copy()} is a restored or copied table: the same items, another identity.
 */
public final class InMemoryClaimMarkers implements ClaimMarkers {

    private static final AtomicInteger TABLES = new AtomicInteger();

    private final Map<Block, ClaimMarker> markers = new HashMap<Block, ClaimMarker>();
    private final String table;
    private volatile boolean unavailable;

    /** A restored or copied table: the same markers, in a table of another identity. */
    public InMemoryClaimMarkers() {
        this("in-memory table " + TABLES.incrementAndGet());
    }

    /** A table of the identity {@code table} (the simulator names its tables itself, the same in every run). */
    public InMemoryClaimMarkers(String table) {
        this.table = table;
    }

    public synchronized InMemoryClaimMarkers copy() {
        return copy("in-memory table " + TABLES.incrementAndGet());
    }

    /** As {@link #copy()}, the copy of identity {@code table}. */
    public synchronized InMemoryClaimMarkers copy(String table) {
        InMemoryClaimMarkers copy = new InMemoryClaimMarkers(table);
        copy.markers.putAll(markers);
        return copy;
    }

    /** Writes {@code marker} as it is, past every condition: a hand-written item. */
    public synchronized void forge(ClaimMarker marker) {
        markers.put(marker.block(), marker);
    }

    @Override
    public String table() {
        reachable();
        return table;
    }

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
    public synchronized ClaimMarker markClaimed(Block block, Claimant claimant, String claimId, long floor, long now,
            boolean replacingRelease) {
        reachable();
        ClaimMarker there = markers.get(block);
        boolean ours = there != null && there.claimant().equals(claimant);
        boolean replaces = there == null || ours && replacingRelease
                || ours && there.state() == ClaimMarker.State.CLAIMED && there.claimId() == null;
        if (replaces) {
            markers.put(block, new ClaimMarker(block, claimant, ClaimMarker.State.CLAIMED, floor, now, null, claimId));
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
        ClaimMarker released = new ClaimMarker(block, claimant, ClaimMarker.State.RELEASED, floor, now, token,
                there == null ? null : there.claimId());
        markers.put(block, released);
        return released;
    }

    private void reachable() {
        if (unavailable) {
            throw new LeaseStoreUnavailableException("the lease table is unavailable (a test's fault)", 1_000, null);
        }
    }
}
