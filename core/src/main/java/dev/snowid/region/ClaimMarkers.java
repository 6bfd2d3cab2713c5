package dev.snowid.region;

import java.util.Optional;

/**
 * The claim markers in a region's lease table, one per block (items outside the slots' keys, so
 * no slot Scan sees them). Implementations throw {@link dev.snowid.lease.LeaseStoreUnavailableException}
 * when the table cannot be reached.
 */
public interface ClaimMarkers {

    /**
     * The identity of this one lease table: something a copy, a restore or a table recreated under
     * the same name does not carry (on DynamoDB its ARN and creation time). A claim is bound to it.
     */
    String table();

    /** The marker of {@code block}, read consistently; empty when the table never claimed it. */
    Optional<ClaimMarker> read(Block block);

    /**
     * Records a claim the registry confirmed, with its id, in one conditional write: only where the
     * block has no marker, or a claimed one of the same claimant without a claim id (made before
     * claims had ids: it is bound now), or (with {@code replacingRelease}, an operator's new claim)
     * a released one of the same claimant. A marker that is there already stays as it is.
     *
     * @return the marker as the table holds it after the write
     */
    ClaimMarker markClaimed(Block block, Claimant claimant, String claimId, long floor, long now, boolean replacingRelease);

    /**
     * Marks the block released, unless another claimant's marker is there: from now on the stack
     * refuses to lease from it. The first release's {@code retiredBy} token stays (a release run
     * again retires with the same token).
     *
     * @return the marker as the table holds it after the write
     * @throws BlockClaimedException when the marker names another claimant
     */
    ClaimMarker markReleased(Block block, Claimant claimant, String retiredBy, long now);
}
