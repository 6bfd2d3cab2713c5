package dev.snowid.lease;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.internal.HexToken;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Leases slots of a {@link SlotPool} from the lease table.
 *
 * <p>Slot choice costs few round trips at any occupancy: one conditional write on a random
 * slot (enough when the pool is mostly free), and when that collides, one Scan for the free
 * and expired slots, then conditional writes on those, in random order, until one wins. At 99%
 * occupancy that is about 3 round trips. While the store's clock is not known yet (the first
 * acquisition of a process) the probe takes only a slot that nobody holds (never leased, or
 * released), so a clock far ahead cannot take over a live lease before the skew check has seen
 * the store's clock; when it collides, its answer has shown the clock, and one ordinary probe
 * follows before the Scan. An acquisition with a request id writes its claim first
 * ({@link RequestClaim}: a write on the id's own item, never a slot's), which also shows the
 * store's clock, and records its grant after: two writes more, and no Scan unless the probe
 * collides.
 */
public final class PooledLeaseSource implements LeaseSource {

    /** Conditional writes tried after the Scan before giving up: each one that loses means another holder was faster. */
    static final int MAX_ATTEMPTS_AFTER_SCAN = 3;
    /**
     * Retry-After after a lost race: free slots were seen but all were taken first (they change
     * hands fast), or a concurrent acquisition with the same request id recorded its grant first.
     */
    private static final long RETRY_AFTER_LOST_RACE_MILLIS = 1_000;

    private final LeaseStore store;
    private final SlotPool pool;
    private final LeaseTerms terms;
    private final WallClock clock;
    private final String holder;
    private final AcquisitionGuard guard;

    /**
     * @param holder who this process is (function, log stream, host, pid): written to the
     *               table's {@code holder} attribute for operators, never used for decisions
     */
    public PooledLeaseSource(LeaseStore store, SlotPool pool, LeaseTerms terms, WallClock clock, String holder) {
        this(store, pool, terms, clock, holder, AcquisitionGuard.NONE);
    }

    private PooledLeaseSource(LeaseStore store, SlotPool pool, LeaseTerms terms, WallClock clock, String holder, AcquisitionGuard guard) {
        if (store == null || pool == null || terms == null || clock == null) {
            throw new IllegalArgumentException("a pooled lease source needs a store, a pool, terms and a clock");
        }
        this.store = store;
        this.pool = pool;
        this.terms = terms;
        this.clock = clock;
        this.holder = holder == null ? "" : holder;
        this.guard = guard == null ? AcquisitionGuard.NONE : guard;
    }

    /** The same source, asking {@code guard} before every new acquisition (e.g. whether the block is claimed for this region). */
    public PooledLeaseSource guardedBy(AcquisitionGuard guard) {
        return new PooledLeaseSource(store, pool, terms, clock, holder, guard);
    }

    @Override
    public Lease acquire() {
        return acquire(holder);
    }

    /**
     * A new lease on a free slot of the pool, with a new owner token.
     *
     * @param holder who the lease is for, e.g. an agent's host and pid (for the table's holder attribute)
     * @throws NoFreeSlotException when every slot is held; retry after the earliest expiry
     * @throws ClockSkewException when the local clock is too far from the store's
     * @throws LeaseStoreUnavailableException when the store cannot be reached
     */
    public Lease acquire(String holder) {
        return acquire(holder, null);
    }

    /**
     * As {@link #acquire(String)}, once per {@code requestId} ({@link AcquisitionRequest}) and
     * {@code holder} ({@link RequestClaim} has the rules): the first acquisition with the id claims
     * it for the holder, and its lease is answered once the claim records it. A retry by the same
     * holder is answered with that lease while its slot is exactly as granted, and else acquires
     * anew in its place. The id is refused for any other holder.
     *
     * @param holder who the lease is for: the id is bound to exactly this text (the lease API puts
     *               the verified IAM caller into it in {@code aws_iam} mode)
     * @param requestId the caller's id of this acquisition, the same on its retries; null: none
     * @throws RequestIdConflictException when another holder sent {@code requestId} first
     * @throws AcquisitionSupersededException when a retry with the same id took this acquisition's place
     */
    public Lease acquire(String holder, String requestId) {
        String who = holder == null ? "" : holder;
        // Both the token and the slot choice come from a SecureRandom made here, per acquisition,
        // never at construction or class init: a SnapStart snapshot is restored into many
        // environments, and anything created before it (a token, a seeded generator) would be the
        // same in all of them. A new SecureRandom seeds itself from the OS on first use.
        SecureRandom random = new SecureRandom();
        String owner = HexToken.draw(random);
        if (requestId == null) {
            guard.beforeAcquisition(); // a stack whose block is not claimed grants nothing
            return lease(who, owner, null, random, false);
        }
        RequestClaim claim = store.claim(requestId, who, owner, clock.millis() + terms.leaseMillis());
        if (!claim.isFor(requestId, who)) {
            throw new RequestIdConflictException("the acquisition id was first sent for another holder; it answers that holder"
                    + " only, so nothing was granted: draw a fresh id for this acquisition", RETRY_AFTER_LOST_RACE_MILLIS);
        }
        boolean retry = !claim.owner().equals(owner);
        if (retry && claim.slot().isPresent()) {
            Optional<Lease> granted = store.grantedFor(claim, clock.millis());
            if (granted.isPresent()) {
                // Refused on a bad clock, but never handed back: the first answer may have reached the
                // holder, who issues under it until its expiry (a late duplicate must not free its slot).
                checkSkew();
                return granted.get();
            }
        }
        // Only a new grant is guarded: a lease answered again by its request id was guarded when granted.
        guard.beforeAcquisition();
        // A retry whose earlier grant is gone, or was never recorded, reads the table first: it is
        // rare, and so its store operations stay within the acquisition's time budget.
        Lease lease = lease(who, owner, requestId, random, retry);
        boolean recorded;
        try {
            recorded = store.recordGrant(claim, lease);
        } catch (RuntimeException unrecorded) {
            throw handBack(lease, unrecorded);
        }
        if (!recorded) {
            throw handBack(lease, new AcquisitionSupersededException("another acquisition with this id, for the same holder, took"
                    + " this one's place; the slot this one took is handed back unanswered", RETRY_AFTER_LOST_RACE_MILLIS));
        }
        return lease;
    }

    /**
     * A new lease on a free slot of the pool under {@code owner}: one random probe (unless
     * {@code scanFirst}), then the Scan and a few writes. Before the store's clock is known, the
     * probe takes only a slot nobody holds; its answer shows the clock, and a second probe may
     * then take an expired lease as usual.
     */
    private Lease lease(String who, String owner, String requestId, SecureRandom random, boolean scanFirst) {
        if (!scanFirst) {
            if (!store.clockSkewMillis().isPresent() && requestId == null) {
                Optional<Lease> unheld = tryAcquire(randomSlot(random), owner, who, null, true);
                if (unheld.isPresent()) {
                    return unheld.get();
                }
            }
            if (store.clockSkewMillis().isPresent()) {
                checkSkew();
                Optional<Lease> probed = tryAcquire(randomSlot(random), owner, who, requestId, false);
                if (probed.isPresent()) {
                    return probed.get();
                }
            }
        }
        Map<Slot, Long> owned = store.ownedExpiries();
        if (!store.clockSkewMillis().isPresent()) {
            throw new LeaseStoreUnavailableException("the lease store answered without its clock (no Date header);"
                    + " refusing to lease a slot without checking the local clock against it", 1_000, null);
        }
        checkSkew();
        long now = clock.millis();
        List<Slot> candidates = new ArrayList<>();
        for (Slot slot : pool.slots()) {
            Long expiresAt = owned.get(slot);
            if (expiresAt == null || expiresAt < now) {
                candidates.add(slot);
            }
        }
        Collections.shuffle(candidates, random);
        for (int i = 0; i < Math.min(MAX_ATTEMPTS_AFTER_SCAN, candidates.size()); i++) {
            Optional<Lease> won = tryAcquire(candidates.get(i), owner, who, requestId, false);
            if (won.isPresent()) {
                return won.get();
            }
        }
        throw noFreeSlot(owned, now, candidates.size());
    }

    private Slot randomSlot(SecureRandom random) {
        return pool.slots().get(random.nextInt(pool.size()));
    }

    /** One conditional write on {@code slot}; with {@code unheldOnly}, {@link LeaseStore#tryAcquireUnheld}. */
    private Optional<Lease> tryAcquire(Slot slot, String owner, String who, String requestId, boolean unheldOnly) {
        long now = clock.millis();
        long expiresAt = now + terms.leaseMillis();
        Optional<Lease> won = unheldOnly ? store.tryAcquireUnheld(slot, owner, who, now, expiresAt)
                : store.tryAcquire(slot, owner, who, now, expiresAt, requestId);
        if (won.isPresent()) {
            handBackIfSkewed(won.get());
        }
        return won;
    }

    /**
     * The skew is measured again on the answer that confirmed {@code lease}: a clock that jumped
     * since the last answer must not keep what it took. Hands the slot back at once and refuses.
     */
    private void handBackIfSkewed(Lease lease) {
        try {
            checkSkew();
        } catch (ClockSkewException skewed) {
            throw handBack(lease, skewed);
        }
    }

    /** Hands back a lease nothing was issued under, unanswered; returns {@code refusal} to be thrown. */
    private RuntimeException handBack(Lease lease, RuntimeException refusal) {
        try {
            store.release(lease.slot(), lease.owner(), lease.fence(), 0);
        } catch (RuntimeException releaseFailed) {
            refusal.addSuppressed(releaseFailed);
        }
        return refusal;
    }

    private void checkSkew() {
        terms.checkSkew(store.clockSkewMillis(), "the lease store's", "refusing to lease a slot until the clock is synchronised (NTP)");
    }

    private NoFreeSlotException noFreeSlot(Map<Slot, Long> owned, long now, int candidates) {
        if (candidates > 0) {
            return new NoFreeSlotException("no free slot in the pool of " + pool + ": the " + candidates
                    + " free slots seen were all taken by other holders first; try again", RETRY_AFTER_LOST_RACE_MILLIS);
        }
        long earliest = Long.MAX_VALUE;
        for (Map.Entry<Slot, Long> lease : owned.entrySet()) {
            if (pool.contains(lease.getKey())) {
                earliest = Math.min(earliest, lease.getValue());
            }
        }
        // A slot is free once its expiry is strictly before now, hence the + 1.
        long retryAfter = earliest == Long.MAX_VALUE ? RETRY_AFTER_LOST_RACE_MILLIS : earliest - now + 1;
        return new NoFreeSlotException("no free slot in the pool of " + pool + ": all " + pool.size()
                + " are held; the earliest lease ends in " + retryAfter + " ms", retryAfter);
    }

    /**
     * Extends the lease from now; never shortens it, even when the local clock is behind its expiry.
     *
     * @throws ClockSkewException when the local clock is too far from the store's, before the write
     *         (as last measured) or on the write's own answer
     */
    @Override
    public Lease renew(Lease lease) {
        guard.beforeRenewal();
        checkSkew();
        long newExpiresAt = Math.max(clock.millis() + terms.leaseMillis(), lease.window().expiresAt());
        Lease renewed = store.renew(lease.slot(), lease.owner(), lease.fence(), newExpiresAt);
        checkSkew();
        return renewed;
    }

    /**
     * Renews a lease held elsewhere (the lease API's {@code PUT /leases/{slot}}): the owner token and
     * fence prove holding. The new expiry is this clock's now plus the lease, so the renewal is
     * answered only after this clock was checked against the store's: before the write (as last
     * measured) and on the write's own answer. A renewal refused that way has at most extended the
     * lease; the holder keeps the window it had confirmed and tries again.
     *
     * @throws LeaseLostException when the slot has another owner or fence, or was never leased
     * @throws ClockSkewException when the local clock is too far from the store's
     */
    public Lease renew(Slot slot, String owner, long fence) {
        guard.beforeRenewal();
        checkSkew();
        Lease renewed = store.renew(slot, owner, fence, clock.millis() + terms.leaseMillis());
        checkSkew();
        return renewed;
    }

    /** The store's clock as seen from here (its {@code Date} header, on the latest answer). */
    @Override
    public OptionalLong clockSkewMillis() {
        return store.clockSkewMillis();
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        store.release(lease.slot(), lease.owner(), lease.fence(), lastIssuedMillis);
    }

    /**
     * Releases a lease held elsewhere (the lease API's {@code DELETE /leases/{slot}}).
     *
     * @param lastIssuedMillis unix ms of the last ID issued under the lease, 0 if none
     * @throws LeaseLostException when the slot has another owner or fence, or was never leased
     */
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        store.release(slot, owner, fence, lastIssuedMillis);
    }

    public SlotPool pool() {
        return pool;
    }

    public LeaseTerms terms() {
        return terms;
    }
}
