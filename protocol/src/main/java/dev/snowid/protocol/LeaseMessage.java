package dev.snowid.protocol;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.internal.HexToken;
import dev.snowid.lease.Lease;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON bodies of the lease routes. A lease travels as
 * {@code {"slot":i,"datacenter":d,"machine":m,"owner":"…","fence":n,"floor":ms,"expiresAt":ms,"epoch":ms}}:
 * everything a holder needs to issue under it and to renew it, including the ID epoch it must
 * issue with. The function writes it with {@link #lease(Lease, long)}, its one writer; the client reads it with
 * {@link #readLease(String)} and {@link #readEpochMillis(String)} and writes its requests with the
 * other methods.
 */
public final class LeaseMessage {

    private LeaseMessage() {
    }

    /** A lease as the lease routes answer it, with the epoch (unix ms) its IDs must be issued with. */
    public static String lease(Lease lease, long epochMillis) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(LeaseFields.SLOT, lease.slot().index());
        json.put(LeaseFields.DATACENTER, lease.slot().datacenter());
        json.put(LeaseFields.MACHINE, lease.slot().machine());
        json.put(LeaseFields.OWNER, lease.owner());
        json.put(LeaseFields.FENCE, lease.fence());
        json.put(LeaseFields.FLOOR, lease.window().floor());
        json.put(LeaseFields.EXPIRES_AT, lease.window().expiresAt());
        json.put(LeaseFields.EPOCH, epochMillis);
        return WireJson.write(json);
    }

    /** {@code POST /leases}: who is asking (free text, shown to operators). */
    public static String acquireRequest(String holder) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(LeaseFields.HOLDER, holder);
        return WireJson.write(json);
    }

    /** {@code POST /leases}: who is asking, and which acquisition ({@link LeaseFields#REQUEST_ID}: the same on its retries). */
    public static String acquireRequest(String holder, String requestId) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(LeaseFields.HOLDER, holder);
        json.put(LeaseFields.REQUEST_ID, requestId);
        return WireJson.write(json);
    }

    /** {@code PUT /leases/{slot}}: the proof of holding. */
    public static String renewRequest(Lease lease) {
        return WireJson.write(claim(lease));
    }

    /** {@code DELETE /leases/{slot}}: the proof of holding and the last ms issued in (0 if none). */
    public static String releaseRequest(Lease lease, long lastIssuedMillis) {
        Map<String, Object> json = claim(lease);
        json.put(LeaseFields.LAST_ISSUED, lastIssuedMillis);
        return WireJson.write(json);
    }

    private static Map<String, Object> claim(Lease lease) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put(LeaseFields.OWNER, lease.owner());
        json.put(LeaseFields.FENCE, lease.fence());
        return json;
    }

    /**
     * Reads a lease answer.
     *
     * @throws IllegalArgumentException saying what is missing or inconsistent
     */
    public static Lease readLease(String body) {
        Map<String, Object> json = WireJson.parse(body);
        Slot slot = Slot.of(intField(json, LeaseFields.DATACENTER), intField(json, LeaseFields.MACHINE));
        if (json.containsKey(LeaseFields.SLOT) && longField(json, LeaseFields.SLOT) != slot.index()) {
            throw new IllegalArgumentException(LeaseFields.SLOT + " " + json.get(LeaseFields.SLOT)
                    + " does not match " + LeaseFields.DATACENTER + ":" + LeaseFields.MACHINE + " " + slot);
        }
        Object owner = json.get(LeaseFields.OWNER);
        if (!(owner instanceof String)) {
            throw new IllegalArgumentException("'" + LeaseFields.OWNER + "' is missing or not a string");
        }
        if (!HexToken.isToken((String) owner)) {
            // Sent back as it came on every renewal and release: one the function could never accept is refused now.
            throw new IllegalArgumentException("'" + LeaseFields.OWNER + "' is not an owner token (" + HexToken.SHAPE + ")");
        }
        return new Lease(slot, (String) owner, longField(json, LeaseFields.FENCE),
                LeaseWindow.of(longField(json, LeaseFields.FLOOR), longField(json, LeaseFields.EXPIRES_AT)));
    }

    /**
     * The ID epoch a lease answer names.
     *
     * @throws IllegalArgumentException when it is missing or not a whole number of unix ms
     */
    public static long readEpochMillis(String body) {
        long epoch = longField(WireJson.parse(body), LeaseFields.EPOCH);
        if (epoch < 0) {
            throw new IllegalArgumentException("'" + LeaseFields.EPOCH + "' " + epoch + " is not a unix ms");
        }
        return epoch;
    }

    private static int intField(Map<String, Object> json, String name) {
        long value = longField(json, name);
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("'" + name + "' " + value + " is out of range");
        }
        return (int) value;
    }

    private static long longField(Map<String, Object> json, String name) {
        Object value = json.get(name);
        if (!(value instanceof Long)) {
            throw new IllegalArgumentException("'" + name + "' is missing or not a whole number");
        }
        return (Long) value;
    }
}
