package dev.snowid.client;

import dev.snowid.lease.Lease;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;

/**
 * What a {@link SnowidClient} has done so far, for an operator: the lease in force, IDs issued,
 * calls refused (by the API's error code for the reason: {@code no_free_slot},
 * {@code store_unavailable}, {@code clock_behind}, {@code clock_skew}, {@code unavailable}),
 * renewals and their failures, leases lost. A snapshot: counters only grow.
 */
public final class ClientStats {

    private final Lease lease;
    private final long leaseMillisLeft;
    private final long idsIssued;
    private final Map<String, Long> refusals;
    private final long renewals;
    private final long renewalFailures;
    private final long leasesLost;

    ClientStats(Lease lease, long leaseMillisLeft, long idsIssued, Map<String, Long> refusals, long renewals,
                long renewalFailures, long leasesLost) {
        this.lease = lease;
        this.leaseMillisLeft = leaseMillisLeft;
        this.idsIssued = idsIssued;
        this.refusals = Collections.unmodifiableMap(refusals);
        this.renewals = renewals;
        this.renewalFailures = renewalFailures;
        this.leasesLost = leasesLost;
    }

    /** The lease in force as last confirmed; empty after a loss or close. */
    public Optional<Lease> lease() {
        return Optional.ofNullable(lease);
    }

    /** Ms until the window in force ends (0 when it has ended); -1 without a lease. */
    public long leaseMillisLeft() {
        return leaseMillisLeft;
    }

    public long idsIssued() {
        return idsIssued;
    }

    /** Refused calls by reason (the API's 503 code); reasons never seen are absent. */
    public Map<String, Long> refusals() {
        return refusals;
    }

    public long renewals() {
        return renewals;
    }

    public long renewalFailures() {
        return renewalFailures;
    }

    public long leasesLost() {
        return leasesLost;
    }

    /**
     * One line for a log or a debugger: {@code ClientStats{slot 3:18 (fence 2), 41200 ms left, 1500 IDs,
     * refusals {}, 3 renewals, 0 failed, 0 leases lost}}; never the owner token.
     */
    @Override
    public String toString() {
        return "ClientStats{" + (lease == null ? "no lease" : "slot " + lease.slot() + " (fence " + lease.fence() + "), "
                + leaseMillisLeft + " ms left") + ", " + idsIssued + " IDs, refusals " + refusals + ", " + renewals + " renewals, "
                + renewalFailures + " failed, " + leasesLost + " leases lost}";
    }
}
