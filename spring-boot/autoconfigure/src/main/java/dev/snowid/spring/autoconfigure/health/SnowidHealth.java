package dev.snowid.spring.autoconfigure.health;

import dev.snowid.Slot;
import dev.snowid.client.ClientStats;
import dev.snowid.client.SnowidClient;
import dev.snowid.lease.Lease;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client's health, the same on both Boot lines (whose health APIs live in different packages):
 * <ul>
 *   <li>{@code UP}: a lease window is in force, so IDs are issued. Details: slot, node, lease ms
 *       left, epoch, and the counts. Never the owner token.</li>
 *   <li>{@code OUT_OF_SERVICE}: no window is in force (the lease was lost, or ran out while the
 *       API did not answer): IDs are refused, but the client keeps trying and recovers by itself.
 *       Take the instance out of the load balancer (readiness), do not restart it (liveness).</li>
 *   <li>{@code DOWN}: the client is closed: it will never issue again.</li>
 * </ul>
 */
public final class SnowidHealth {

    public static final String UP = "UP";
    public static final String OUT_OF_SERVICE = "OUT_OF_SERVICE";
    public static final String DOWN = "DOWN";

    private final String status;
    private final Map<String, Object> details;

    private SnowidHealth(String status, Map<String, Object> details) {
        this.status = status;
        this.details = details;
    }

    public static SnowidHealth of(SnowidClient client) {
        ClientStats stats = client.stats();
        Map<String, Object> details = new LinkedHashMap<>();
        Lease lease = stats.lease().orElse(null);
        String status;
        if (client.isClosed()) {
            status = DOWN;
            details.put("reason", "the client is closed and its lease released; it issues no more IDs");
        } else if (client.isSuspended()) {
            status = OUT_OF_SERVICE;
            details.put("reason", "the client is suspended (the context stopped, e.g. for a CRaC checkpoint) and holds no lease;"
                    + " it leases anew when the context starts again");
        } else if (lease == null) {
            status = OUT_OF_SERVICE;
            details.put("reason", "no lease is in force: the last one was lost (" + stats.leasesLost()
                    + " lost so far) and no new one is confirmed yet; IDs are refused until the client leases anew");
        } else if (stats.leaseMillisLeft() <= 0) {
            status = OUT_OF_SERVICE;
            details.put("reason", "the lease window ended without a confirmed renewal (" + stats.renewalFailures()
                    + " renewal failures so far); IDs are refused until the lease API answers");
        } else {
            status = UP;
        }
        if (lease != null) {
            Slot slot = lease.slot();
            details.put("slot", slot.toString());
            details.put("datacenter", slot.datacenter());
            details.put("machine", slot.machine());
            details.put("node", slot.index());
            details.put("leaseMillisLeft", stats.leaseMillisLeft());
        }
        if (client.leaseAuth() != null) {
            details.put("leaseAuth", client.leaseAuth().value()); // the mode only: never a secret, key or token
        }
        details.put("epochMillis", client.codec().epochMillis());
        details.put("idsIssued", stats.idsIssued());
        details.put("refusals", stats.refusals());
        details.put("renewals", stats.renewals());
        details.put("renewalFailures", stats.renewalFailures());
        details.put("leasesLost", stats.leasesLost());
        return new SnowidHealth(status, details);
    }

    /** {@link #UP}, {@link #OUT_OF_SERVICE} or {@link #DOWN}: Spring Boot's status codes. */
    public String status() {
        return status;
    }

    public Map<String, Object> details() {
        return details;
    }
}
