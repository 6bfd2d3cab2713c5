package dev.snowid.simulator;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.lease.Lease;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The protocol's safety invariants, checked at every ID issued and every write the lease tables
 * confirm. Ground truth is what the tables stored (every grant, renewal, release and deletion, as
 * it happened), never what a holder believes.
 * <ul>
 * <li>no ID twice in the whole fleet; no two processes issuing under one lease;</li>
 * <li>every ID's time inside its lease's window as the table holds it at that moment
 *     ({@code [floor, expiry)}: for a lease taken over, released or deleted, the expiry it had
 *     then, its ceiling), and no later than true time + the lease + the tolerated skew + 2 s;</li>
 * <li>per slot, the IDs of a later grant (in any table, across handovers) all above an earlier's.</li>
 * </ul>
 */
final class Invariants {

    /** How far past true time an ID may lie: the lease, the tolerated skew (Date header included) and 2 s for the round trips. */
    private final long aheadBoundMillis;
    private final SnowflakeCodec codec;
    private final Map<String, Grant> byOwner = new HashMap<>();
    private final Map<String, Grant> current = new HashMap<>();
    private final Map<Integer, List<Grant>> bySlot = new HashMap<>();
    private final IdSet ids = new IdSet();
    private long grants;
    private long issued;
    private String violation;

    Invariants(SnowflakeCodec codec, long leaseMillis, long toleratedSkewMillis) {
        this.codec = codec;
        this.aheadBoundMillis = leaseMillis + toleratedSkewMillis + 2_000;
    }

    /** A lease as one table stored it. */
    static final class Grant {
        final String table;
        final Slot slot;
        final long fence;
        final long floor;
        final long seq;
        long ceiling;
        boolean ended;
        String issuer;
        long minId = Long.MAX_VALUE;
        long maxId = Long.MIN_VALUE;

        Grant(String table, Slot slot, long fence, long floor, long ceiling, long seq) {
            this.table = table;
            this.slot = slot;
            this.fence = fence;
            this.floor = floor;
            this.ceiling = ceiling;
            this.seq = seq;
        }

        @Override
        public String toString() {
            return table + " slot " + slot + " fence " + fence + " [" + floor + ", " + ceiling + ")" + (ended ? " (ended)" : "");
        }
    }

    String violation() {
        return violation;
    }

    long issued() {
        return issued;
    }

    long grants() {
        return grants;
    }

    void granted(String table, Lease lease) {
        String key = table + "/" + lease.slot().index();
        Grant before = current.get(key);
        if (before != null) {
            before.ended = true; // taken over (or deleted before): its ceiling stays what it was
        }
        Grant grant = new Grant(table, lease.slot(), lease.fence(), lease.window().floor(), lease.window().expiresAt(), grants++);
        byOwner.put(lease.owner(), grant);
        current.put(key, grant);
        bySlot.computeIfAbsent(lease.slot().index(), s -> new ArrayList<>()).add(grant);
    }

    void renewed(String table, Lease lease) {
        Grant grant = byOwner.get(lease.owner());
        if (grant != null && !grant.ended && grant.table.equals(table)) {
            grant.ceiling = Math.max(grant.ceiling, lease.window().expiresAt());
        }
    }

    void released(String table, Slot slot, String owner, long expiresAt) {
        Grant grant = byOwner.get(owner);
        if (grant != null && !grant.ended && grant.table.equals(table)) {
            grant.ceiling = expiresAt;
            grant.ended = true;
        }
    }

    /** TTL deleted the slot's item: whatever lease it held is over. */
    void deleted(String table, Slot slot) {
        Grant grant = current.remove(table + "/" + slot.index());
        if (grant != null) {
            grant.ended = true;
        }
    }

    /** A table no stack uses any more (replaced by a restore): every lease in it is over. */
    void tableGone(String table) {
        current.entrySet().removeIf(entry -> {
            if (entry.getKey().startsWith(table + "/")) {
                entry.getValue().ended = true;
                return true;
            }
            return false;
        });
    }

    /** Checks one ID; returns the violation it makes, or null. */
    String issued(String issuer, Lease lease, long id, long trueMillis) {
        issued++;
        SnowflakeId decoded = codec.decode(id);
        long t = decoded.unixMillis();
        String at = issuer + " issued " + id + " (slot " + decoded.slot() + ", " + t + " ms) under " + lease.slot() + " fence "
                + lease.fence() + ": ";
        if (!ids.add(id)) {
            return fail(at + "this ID was issued before (no ID twice)");
        }
        Grant grant = byOwner.get(lease.owner());
        if (grant == null) {
            return fail(at + "no table ever granted that lease");
        }
        if (!grant.slot.equals(decoded.slot())) {
            return fail(at + "the ID's slot is not the lease's");
        }
        if (grant.issuer == null) {
            grant.issuer = issuer;
        } else if (!grant.issuer.equals(issuer)) {
            return fail(at + "one lease issued from by two processes (" + grant.issuer + " and " + issuer + "): two generators share a window");
        }
        if (t < grant.floor) {
            return fail(at + "below its floor " + grant.floor + " (" + grant + ")");
        }
        if (t >= grant.ceiling) {
            return fail(at + "at or past its ceiling " + grant.ceiling + ", the expiry its table holds (" + grant + ")");
        }
        if (t > trueMillis + aheadBoundMillis) {
            return fail(at + "its time is " + (t - trueMillis) + " ms ahead of true time; the lease, the tolerated skew and 2 s allow "
                    + aheadBoundMillis);
        }
        for (Grant other : bySlot.get(grant.slot.index())) {
            if (other.seq < grant.seq && other.maxId >= id) {
                return fail(at + "not above ID " + other.maxId + " of an earlier lease of the slot (" + other + "; this one " + grant + ")");
            }
            if (other.seq > grant.seq && other.minId <= id) {
                return fail(at + "not below ID " + other.minId + " of a later lease of the slot (" + other + "; this one " + grant + ")");
            }
        }
        grant.minId = Math.min(grant.minId, id);
        grant.maxId = Math.max(grant.maxId, id);
        return null;
    }

    String fail(String what) {
        if (violation == null) {
            violation = what;
        }
        return what;
    }
}
