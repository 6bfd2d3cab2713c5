package dev.snowid.lease;

import java.util.OptionalLong;

/**
 * Where a generator gets its lease from: the slot pool on the lease table (inside the
 * function) or the function's lease API over HTTPS (the agent). Each call is one confirmed
 * answer of the store, or an exception; nothing is assumed on a timeout.
 */
public interface LeaseSource {

    /**
     * A new lease on a free slot.
     *
     * @throws NoFreeSlotException when every slot is held
     * @throws LeaseStoreUnavailableException when the store cannot be reached or keeps failing
     */
    Lease acquire();

    /**
     * The same lease, held longer. The caller uses the new expiry only once this returns.
     *
     * @throws LeaseLostException when the slot is no longer ours
     */
    Lease renew(Lease lease);

    /**
     * Frees the slot at once; its next holder starts after {@code lastIssuedMillis} (0 when
     * nothing was issued).
     *
     * @throws LeaseLostException when the slot is no longer ours
     */
    void release(Lease lease, long lastIssuedMillis);

    /**
     * The local clock minus the source's (ms), as measured on its latest answer; empty when not
     * known. A {@link LeasedGenerator} gives back a lease confirmed while this is beyond its
     * terms' tolerance.
     */
    default OptionalLong clockSkewMillis() {
        return OptionalLong.empty();
    }
}
