package dev.snowid.testing;

import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.RequestClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the round trips made to a lease store: each {@link LeaseStore} call is one request
 * (retries inside a real store aside). Wraps any store, the in-memory one or a real engine's,
 * so that round trips per acquisition can be measured without a mock.
 */
public final class CountingLeaseStore implements LeaseStore {

    private final LeaseStore store;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong scans = new AtomicLong();
    private final AtomicLong reads = new AtomicLong();

    public CountingLeaseStore(LeaseStore store) {
        this.store = store;
    }

    /** Requests made so far: conditional writes, Scans and keyed reads. */
    public long roundTrips() {
        return writes.get() + scans.get() + reads.get();
    }

    /** Keyed reads of one item ({@link #grantedFor}). */
    public long reads() {
        return reads.get();
    }

    public long scans() {
        return scans.get();
    }

    public long writes() {
        return writes.get();
    }

    @Override
    public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        writes.incrementAndGet();
        return store.tryAcquire(slot, owner, holder, now, expiresAt, requestId);
    }

    @Override
    public Lease renew(Slot slot, String owner, long fence, long newExpiresAt) {
        writes.incrementAndGet();
        return store.renew(slot, owner, fence, newExpiresAt);
    }

    @Override
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        writes.incrementAndGet();
        store.release(slot, owner, fence, lastIssuedMillis);
    }

    @Override
    public RequestClaim claim(String requestId, String holder, String owner, long until) {
        writes.incrementAndGet();
        return store.claim(requestId, holder, owner, until);
    }

    @Override
    public boolean recordGrant(RequestClaim read, Lease lease) {
        writes.incrementAndGet();
        return store.recordGrant(read, lease);
    }

    @Override
    public Optional<Lease> grantedFor(RequestClaim claim, long now) {
        reads.incrementAndGet();
        return store.grantedFor(claim, now);
    }

    @Override
    public Map<Slot, Long> ownedExpiries() {
        scans.incrementAndGet();
        return store.ownedExpiries();
    }

    @Override
    public List<HeldSlot> heldSlots() {
        scans.incrementAndGet();
        return store.heldSlots();
    }

    @Override
    public OptionalLong clockSkewMillis() {
        return store.clockSkewMillis();
    }

    @Override
    public void forgetClockSkew() {
        store.forgetClockSkew();
    }
}
