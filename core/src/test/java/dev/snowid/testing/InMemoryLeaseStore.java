package dev.snowid.testing;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.RequestClaim;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A lease table in memory, for unit tests of pure lease logic only (DynamoDB behaviour is
 * tested against a real engine). It has the table's conditions exactly, and passes the same
 * {@link LeaseStoreContract} as the DynamoDB store: acquire when there is no item or its expiry
 * is before {@code now}, copying the old expiry into the floor and bumping the fence; renew and
 * release only with the right owner and fence; a renewal keeps the later of the stored and the
 * asked expiry; a release writes {@link LeaseWindow#expiryOnRelease(long)}.
 *
 * <p>Request claims live beside the slots' items, keyed by the whole id; {@link #rows()} shows
 * the slots' items only, as a Scan of the real table sees them.
 *
 * <p>One table can have several clients ({@link #newClient()}), each with its own measured
 * clock skew and its own faults, as processes with different clocks and networks would.
 */
public final class InMemoryLeaseStore implements LeaseStore {

    /** What goes wrong on the next calls of one client. */
    public enum Fault {
        /** Every call works. */
        NONE,
        /** Every call fails with {@link LeaseStoreUnavailableException}; the table is not touched. */
        UNAVAILABLE,
        /** Every call is carried out, then fails as if the answer was lost on the way back (a timeout). */
        ANSWER_LOST
    }

    /** One item of the table, as read at one moment. {@code owner} is null after a release. */
    public static final class Row {
        public final String owner;
        public final long fence;
        public final long expiresAt;
        public final long floor;
        public final String holder;
        /** The id of the acquisition that granted this lease, until its first renewal or release; else null. */
        public final String requestId;
        /** After a release: the owner token that released it (a repeated release is recognised); else null. */
        public final String releasedBy;

        Row(String owner, long fence, long expiresAt, long floor, String holder, String requestId, String releasedBy) {
            this.owner = owner;
            this.fence = fence;
            this.expiresAt = expiresAt;
            this.floor = floor;
            this.holder = holder;
            this.requestId = requestId;
            this.releasedBy = releasedBy;
        }

        @Override
        public String toString() {
            return "owner=" + owner + " fence=" + fence + " floor=" + floor + " expiresAt=" + expiresAt + " holder=" + holder;
        }
    }

    /**
     * DynamoDB's TTL attribute, as the function writes it (lambda's {@code LeaseItems}): a slot's item
     * a week after its expiry, a request claim an hour after the lease it is for. TTL deletes an
     * item at any moment after that ({@link #deleteTtlPassed}).
     */
    public static final long SLOT_TTL_AFTER_EXPIRY_MILLIS = 7L * 24 * 3_600_000;
    public static final long CLAIM_TTL_AFTER_LEASE_MILLIS = 3_600_000;

    private final Map<Integer, Row> table;
    /** The request claims, by acquisition id; guarded by {@link #table}, as one table. */
    private final Map<String, RequestClaim> claims;
    /** Unix ms after which TTL may delete each request claim; guarded by {@link #table}. */
    private final Map<String, Long> claimTtl;
    private volatile long clockSkewMillis;
    private volatile boolean answered;
    private volatile Fault fault = Fault.NONE;

    /** A new, empty table, and a client on it whose clock agrees with the store's. */
    public InMemoryLeaseStore() {
        this(new HashMap<Integer, Row>(), new HashMap<String, RequestClaim>(), new HashMap<String, Long>());
    }

    private InMemoryLeaseStore(Map<Integer, Row> table, Map<String, RequestClaim> claims, Map<String, Long> claimTtl) {
        this.table = table;
        this.claims = claims;
        this.claimTtl = claimTtl;
    }

    /** Another client of the same table (another process): skew 0, no faults, nothing answered yet. */
    public InMemoryLeaseStore newClient() {
        return new InMemoryLeaseStore(table, claims, claimTtl);
    }

    /** Another table holding this one's items as they are now: a backup, restored later (a client of it, as {@link #newClient()}). */
    public InMemoryLeaseStore backup() {
        synchronized (table) {
            return new InMemoryLeaseStore(new HashMap<>(table), new HashMap<>(claims), new HashMap<>(claimTtl));
        }
    }

    /**
     * DynamoDB's TTL clean-up: deletes the items whose TTL passed before {@code nowMillis} and that
     * {@code chosen} picks (TTL deletes late and lazily: any of them, at any moment after).
     *
     * @return how many items were deleted
     */
    public int deleteTtlPassed(long nowMillis, java.util.function.Predicate<String> chosen) {
        int deleted = 0;
        synchronized (table) {
            for (Integer index : new java.util.TreeSet<>(table.keySet())) {
                if (table.get(index).expiresAt + SLOT_TTL_AFTER_EXPIRY_MILLIS < nowMillis && chosen.test("slot " + index)) {
                    table.remove(index);
                    deleted++;
                }
            }
            for (String id : new java.util.TreeSet<>(claimTtl.keySet())) {
                if (claimTtl.get(id) < nowMillis && chosen.test("claim " + id)) {
                    claims.remove(id);
                    claimTtl.remove(id);
                    deleted++;
                }
            }
        }
        return deleted;
    }

    /** The claim of {@code requestId}, if it has one. */
    public Optional<RequestClaim> claimOf(String requestId) {
        synchronized (table) {
            return Optional.ofNullable(claims.get(requestId));
        }
    }

    /** The local clock minus the store's, as this client will report it once the store has answered. */
    public InMemoryLeaseStore setClockSkewMillis(long skewMillis) {
        this.clockSkewMillis = skewMillis;
        return this;
    }

    public InMemoryLeaseStore setFault(Fault fault) {
        this.fault = fault;
        return this;
    }

    /** The slot's item now, if it has one. */
    public Optional<Row> row(Slot slot) {
        synchronized (table) {
            return Optional.ofNullable(table.get(slot.index()));
        }
    }

    /** Every item, by slot. */
    public Map<Slot, Row> rows() {
        synchronized (table) {
            Map<Slot, Row> copy = new TreeMap<>();
            for (Map.Entry<Integer, Row> item : table.entrySet()) {
                copy.put(Slot.ofIndex(item.getKey()), item.getValue());
            }
            return copy;
        }
    }

    @Override
    public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        if (expiresAt <= now) {
            throw new IllegalArgumentException("expiresAt " + expiresAt + " must be after now " + now);
        }
        before();
        Optional<Lease> result;
        synchronized (table) {
            Row old = table.get(slot.index());
            if (old != null && old.expiresAt >= now) {
                result = Optional.empty();
            } else {
                long fence = old == null ? 1 : old.fence + 1;
                long floor = old == null ? 0 : old.expiresAt;
                table.put(slot.index(), new Row(owner, fence, expiresAt, floor, holder, requestId, null));
                result = Optional.of(new Lease(slot, owner, fence, LeaseWindow.of(floor, expiresAt)));
            }
        }
        return after(result);
    }

    @Override
    public Lease renew(Slot slot, String owner, long fence, long newExpiresAt) {
        before();
        Lease renewed;
        synchronized (table) {
            Row row = held(slot, owner, fence, "renew");
            // As on DynamoDB: a renewal never shortens the stored expiry, and answers with what is stored.
            long expiresAt = Math.max(row.expiresAt, newExpiresAt);
            table.put(slot.index(), new Row(owner, fence, expiresAt, row.floor, row.holder, null, null));
            renewed = new Lease(slot, owner, fence, LeaseWindow.of(row.floor, expiresAt));
        }
        return after(renewed);
    }

    @Override
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        before();
        synchronized (table) {
            Row released = table.get(slot.index());
            // Released before by this owner under this fence: the retry changes nothing, and succeeds.
            boolean again = released != null && released.owner == null && released.fence == fence && owner.equals(released.releasedBy);
            if (!again) {
                Row row = held(slot, owner, fence, "release");
                long expiresAt = LeaseWindow.of(row.floor, row.expiresAt).expiryOnRelease(lastIssuedMillis);
                table.put(slot.index(), new Row(null, fence, expiresAt, row.floor, row.holder, null, owner));
            }
        }
        after(null);
    }

    @Override
    public RequestClaim claim(String requestId, String holder, String owner, long until) {
        before();
        RequestClaim stored;
        synchronized (table) {
            stored = claims.get(requestId);
            if (stored == null) {
                stored = new RequestClaim(requestId, holder, owner, null);
                claims.put(requestId, stored);
                claimTtl.put(requestId, until + CLAIM_TTL_AFTER_LEASE_MILLIS);
            }
        }
        return after(stored);
    }

    @Override
    public boolean recordGrant(RequestClaim read, Lease lease) {
        before();
        boolean recorded = false;
        synchronized (table) {
            RequestClaim stored = claims.get(read.requestId());
            if (stored != null && stored.owner().equals(read.owner()) && stored.slot().equals(read.slot())) {
                claims.put(read.requestId(), new RequestClaim(stored.requestId(), stored.holder(), lease.owner(), lease.slot()));
                claimTtl.put(read.requestId(), lease.window().expiresAt() + CLAIM_TTL_AFTER_LEASE_MILLIS);
                recorded = true;
            }
        }
        return after(recorded);
    }

    @Override
    public Optional<Lease> grantedFor(RequestClaim claim, long now) {
        before();
        Optional<Lease> granted = Optional.empty();
        synchronized (table) {
            Row row = claim.slot().isPresent() ? table.get(claim.slot().get().index()) : null;
            if (row != null && claim.owner().equals(row.owner) && claim.requestId().equals(row.requestId) && row.expiresAt >= now) {
                granted = Optional.of(new Lease(claim.slot().get(), row.owner, row.fence, LeaseWindow.of(row.floor, row.expiresAt)));
            }
        }
        return after(granted);
    }

    @Override
    public Map<Slot, Long> ownedExpiries() {
        before();
        Map<Slot, Long> owned = new HashMap<>();
        synchronized (table) {
            for (Map.Entry<Integer, Row> item : table.entrySet()) {
                if (item.getValue().owner != null) {
                    owned.put(Slot.ofIndex(item.getKey()), item.getValue().expiresAt);
                }
            }
        }
        return after(owned);
    }

    @Override
    public List<HeldSlot> heldSlots() {
        before();
        List<HeldSlot> held = new ArrayList<>();
        synchronized (table) {
            for (Map.Entry<Integer, Row> item : new TreeMap<>(table).entrySet()) {
                Row row = item.getValue();
                if (row.owner != null) {
                    held.add(new HeldSlot(Slot.ofIndex(item.getKey()), row.holder, row.fence, row.floor, row.expiresAt));
                }
            }
        }
        return after(held);
    }

    @Override
    public OptionalLong clockSkewMillis() {
        return answered ? OptionalLong.of(clockSkewMillis) : OptionalLong.empty();
    }

    @Override
    public void forgetClockSkew() {
        answered = false;
    }

    /** The condition of renew and release: the item exists and has this owner and fence. */
    private Row held(Slot slot, String owner, long fence, String what) {
        Row row = table.get(slot.index());
        if (row == null || row.owner == null || !row.owner.equals(owner) || row.fence != fence) {
            answered = true; // a failed condition is an answer too
            throw new LeaseLostException("cannot " + what + " slot " + slot + ": it is not held with this owner token and fence "
                    + fence + (row == null ? " (never leased)" : " (now fence " + row.fence + (row.owner == null ? ", released)" : ")")));
        }
        return row;
    }

    private void before() {
        if (fault == Fault.UNAVAILABLE) {
            throw new LeaseStoreUnavailableException("in-memory lease store set unavailable", 1_000, null);
        }
    }

    private <T> T after(T result) {
        if (fault == Fault.ANSWER_LOST) {
            throw new LeaseStoreUnavailableException("in-memory lease store: the write was done, its answer lost", 1_000, null);
        }
        answered = true;
        return result;
    }
}
