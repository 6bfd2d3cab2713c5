package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/**
 * What must hold before a {@link PooledLeaseSource} acquires or renews a slot, beyond the table's
 * own conditions: e.g. that the pool's block is claimed for this region ({@code dev.snowid.region}).
 * Releases are not asked: they only ever end a lease.
 */
public interface AcquisitionGuard {

    /** Lets every acquisition through: a lone stack. */
    AcquisitionGuard NONE = new AcquisitionGuard() {
        @Override
        public void beforeAcquisition() {
        }
    };

    /**
     * Called before each new acquisition (not for an acquisition answered again by its request id).
     *
     * @throws IdUnavailableException refusing the acquisition (a 503 with its own code)
     */
    void beforeAcquisition();

    /**
     * Called before each renewal of a lease granted under this guard (as a guard asks less often
     * than for a grant: it may let every renewal through).
     *
     * @throws IdUnavailableException refusing the renewal (the holder stops issuing when its lease runs out)
     */
    default void beforeRenewal() {
    }
}
