package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/**
 * What must hold before a {@link PooledLeaseSource} acquires a slot, beyond the table's own
 * conditions: e.g. that the pool's block is claimed for this region ({@code dev.snowid.region}).
 * Renewals and releases are not asked: they only ever continue a lease acquired under the guard.
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
}
