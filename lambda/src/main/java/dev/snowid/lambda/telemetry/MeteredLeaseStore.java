package dev.snowid.lambda.telemetry;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.RequestClaim;
import dev.snowid.lease.SlotPool;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A lease store that tells the request's {@link LeaseActivity} (through its {@link LeaseMeter}) about every call it makes, and
 * about the pool's occupancy whenever it scans the table: an acquisition scans when its random
 * probe collides (a process's first, when both its probes do), so the fuller the pool, the more
 * often occupancy is seen, which is when it matters.
 */
public final class MeteredLeaseStore implements LeaseStore {

    private final LeaseStore store;
    private final Map<PoolPart, SlotPool> parts;
    private final WallClock clock;
    private final LeaseMeter meter;

    public MeteredLeaseStore(LeaseStore store, Map<PoolPart, SlotPool> parts, WallClock clock, LeaseMeter meter) {
        this.meter = meter;
        this.store = store;
        this.parts = Map.copyOf(parts);
        this.clock = clock;
    }

    @Override
    public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        meter.current().storeCall();
        return store.tryAcquire(slot, owner, holder, now, expiresAt, requestId);
    }

    @Override
    public Optional<Lease> tryAcquireUnheld(Slot slot, String owner, String holder, long now, long expiresAt) {
        meter.current().storeCall();
        return store.tryAcquireUnheld(slot, owner, holder, now, expiresAt);
    }

    @Override
    public RequestClaim claim(String requestId, String holder, String owner, long until) {
        meter.current().storeCall();
        return store.claim(requestId, holder, owner, until);
    }

    @Override
    public boolean recordGrant(RequestClaim read, Lease lease) {
        meter.current().storeCall();
        return store.recordGrant(read, lease);
    }

    @Override
    public Optional<Lease> grantedFor(RequestClaim claim, long now) {
        meter.current().storeCall();
        return store.grantedFor(claim, now);
    }

    @Override
    public Lease renew(Slot slot, String owner, long fence, long newExpiresAt) {
        meter.current().storeCall();
        return store.renew(slot, owner, fence, newExpiresAt);
    }

    @Override
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        meter.current().storeCall();
        store.release(slot, owner, fence, lastIssuedMillis);
    }

    @Override
    public Map<Slot, Long> ownedExpiries() {
        LeaseActivity activity = meter.current();
        activity.storeCall();
        Map<Slot, Long> owned = store.ownedExpiries();
        long now = clock.millis();
        parts.forEach((part, pool) -> {
            int held = 0;
            for (Map.Entry<Slot, Long> lease : owned.entrySet()) {
                // Held as PooledLeaseSource sees it: a slot is free once its expiry has passed.
                if (pool.contains(lease.getKey()) && lease.getValue() >= now) {
                    held++;
                }
            }
            activity.observed(new LeaseActivity.Occupancy(part, held, pool.size()));
        });
        return owned;
    }

    @Override
    public List<HeldSlot> heldSlots() {
        meter.current().storeCall();
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

    @Override
    public String toString() {
        return store.toString();
    }
}
