package dev.snowid.lease;

import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseExpiredException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.WallClock;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A generator on a lease, following {@code docs/protocol.md}: what the function, the client and the
 * agent call. It leases a slot on the first ID (never in the constructor: a SnapStart snapshot must
 * not hold one) and fails closed: the {@link SnowflakeGenerator} underneath checks every ID's own
 * timestamp against the confirmed window, and is closed the moment the lease is known to be lost.
 * The calls that issue IDs talk to the source, unless {@link LeasedGeneratorBuilder#renewInBackground()}
 * leaves that to the owner's thread ({@link #maintainLease()}).
 *
 * <p>States and transitions ("window" is the confirmed {@code [floor, expiresAt)}):
 * <table>
 * <caption>lease states</caption>
 * <tr><th>state</th><th>event</th><th>next state</th></tr>
 * <tr><td>none</td><td>an ID is asked for (inline) or {@link #maintainLease()}</td><td>acquire → held (or the source's exception, nothing issued)</td></tr>
 * <tr><td>held, in force</td><td>an ID is asked for</td><td>held: the ID comes from the window</td></tr>
 * <tr><td>held, less than half left</td><td>an ID (inline) or {@link #maintainLease()}</td>
 *     <td>renewed: the same generator, a later expiry; on failure the window in force stays.
 *     At most one renewal per quarter lease ({@link LeaseTerms#minRenewalIntervalMillis()})</td></tr>
 * <tr><td>held, run out</td><td>an ID (inline) or {@link #maintainLease()}</td><td>renew the same slot (owner + fence
 *     prove nobody held it since), else (lost) acquire anew</td></tr>
 * <tr><td>held</td><td>the source says lost, or confirms an earlier expiry</td><td>none: closed first, not one more ID</td></tr>
 * <tr><td>held</td><td>a confirmed window this clock has already passed, or the source's clock too far from this one</td>
 *     <td>none: closed, released with the last issued ms, and {@link ClockSkewException}; no lease is taken for its
 *     Retry-After. Never acquire while holding: a clock far ahead would otherwise lease slot after slot</td></tr>
 * <tr><td>held</td><td>{@link #release()}</td><td>none: closed, then released with the last issued ms</td></tr>
 * <tr><td>held</td><td>{@link #forget()} (CRaC restore)</td><td>none: closed, the source is not told</td></tr>
 * <tr><td>any</td><td>{@link #shutdown()}</td><td>shut down: released, and no lease is ever taken again</td></tr>
 * </table>
 *
 * <p>Thread-safe. Issuing is lock-free; talking to the lease source is done by one thread at
 * a time. While one thread renews, the others keep issuing from the window in force.
 */
public final class LeasedGenerator {

    /** How often one call looks again after the generator it used was closed or ran out under it. */
    private static final int MAX_ROUNDS = 4;

    private final TimedLeaseSource source;
    private final LeaseTerms terms;
    private final WallClock clock;
    private final SnowflakeCodec codec;
    private final boolean renewInBackground;
    private final FloorWait floorWait;
    private final LeaseSchedule schedule;
    private final LeaseEvents events;
    private final ReentrantLock lock = new ReentrantLock();

    /** The lease and the generator issuing under it; null when nothing is held. Written under {@link #lock}. */
    private volatile Held held;
    /** Set by {@link #shutdown()}: no lease is taken after it. */
    private volatile boolean shutDown;

    /** Renews on the request path and never waits for a floor: the function's generator. */
    public LeasedGenerator(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
        this(builder(source, terms, clock, codec));
    }

    LeasedGenerator(LeasedGeneratorBuilder builder) {
        this.source = new TimedLeaseSource(builder.source, builder.monotonic);
        this.terms = builder.terms;
        this.clock = builder.clock;
        this.codec = builder.codec;
        this.renewInBackground = builder.renewInBackground;
        this.floorWait = new FloorWait(builder.clock, builder.monotonic, builder.floorWaitMillis);
        this.schedule = new LeaseSchedule(builder.terms, builder.clock);
        this.events = builder.events;
    }

    /** A generator with options beyond the constructor's; without any, the same as the constructor. */
    public static LeasedGeneratorBuilder builder(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
        return new LeasedGeneratorBuilder(source, terms, clock, codec);
    }

    /**
     * One ID, under a confirmed lease.
     *
     * @throws dev.snowid.IdUnavailableException when no ID can be issued now (no slot, store down
     *         with the lease run out, clock behind or too far off); nothing was issued
     */
    public long nextId() {
        return issue(Issue.ONE);
    }

    /** {@code count} increasing IDs (1 to 4,096), all under one confirmed lease. */
    public long[] nextIds(int count) {
        return issue(new Issue.Batch(SnowflakeCodec.checkBatchCount(count))); // checked before leasing anything
    }

    /** Issues from a generator in force; one closed or run out between handing it out and issuing is looked for again. */
    private <T> T issue(Issue<T> issuing) {
        for (int round = 1; ; round++) {
            SnowflakeGenerator generator = readyGenerator();
            try {
                return issuing.from(generator);
            } catch (LeaseExpiredException closedOrRunOut) {
                if (round == MAX_ROUNDS) {
                    throw closedOrRunOut;
                }
            }
        }
    }

    /** The lease in force as last confirmed by the source; empty before the first ID and after a loss, release or forget. */
    public Optional<Lease> currentLease() {
        Held current = held;
        return current == null ? Optional.<Lease>empty() : Optional.of(current.lease);
    }

    /**
     * For the owner's own thread (the client's renewer calls it every tick): renews the lease once
     * less than half is left; renews it, or leases anew, when its window has ended or nothing is
     * held. After a failure it leaves the source alone for the failure's Retry-After, so calling it
     * often costs nothing.
     *
     * @return whether the source confirmed a renewal or a new lease
     * @throws LeaseLostException when the slot is no longer ours; the generator is already closed
     * @throws ClockSkewException when this clock is too far from the source's; the lease was given back
     * @throws IdUnavailableException the source's failure (unavailable, no free slot …); a window
     *         in force stays in force until it ends
     */
    public boolean maintainLease() {
        lock.lock();
        try {
            if (shutDown) {
                return false;
            }
            Held current = held;
            long now = clock.millis();
            if (current != null && inForce(current, now)) {
                if (!dueForRenewal(current, now)) {
                    return false;
                }
                try {
                    renew(current);
                    return true;
                } catch (RuntimeException failed) {
                    if (held == current) { // still ours: its window stays in force, try again soon
                        schedule.renewalFailed(failed);
                    }
                    throw failed;
                }
            }
            if (schedule.backingOff(now)) {
                return false; // backing off after a failure; callers fail closed meanwhile
            }
            if (current != null && !current.generator.isClosed() && !schedule.renewalIntervalPassed(now)) {
                return false; // renewed a moment ago and run out already: a clock far ahead; renewals stay rate-bound
            }
            try {
                renewOrAcquire(current);
            } catch (RuntimeException failed) {
                schedule.backOff(failed);
                throw failed;
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Orderly shutdown (or a CRaC checkpoint): closes the generator, so that no ID is issued
     * after, then releases the lease with the last issued ms, so the slot is free at once. Does
     * nothing when no lease is held. A later {@link #nextId()} leases anew (CRaC restores need
     * that); for the end of the process, use {@link #shutdown()}.
     *
     * @throws LeaseLostException when the slot was no longer ours anyway
     * @throws LeaseStoreUnavailableException when the release did not reach the store; the lease
     *         then simply runs out
     */
    public void release() {
        lock.lock();
        try {
            Held current = held;
            if (current == null) {
                return;
            }
            held = null;
            releaseClosed(current, "released by its holder");
        } finally {
            lock.unlock();
        }
    }

    /**
     * The final {@link #release()}: afterwards no lease is ever taken again and every call fails
     * with a {@link LeaseExpiredException}. For a shutdown hook, where a thread racing the hook
     * would otherwise find nothing held and lease a fresh slot that nobody releases. Throws as
     * {@link #release()} does.
     */
    public void shutdown() {
        shutDown = true; // before the lock, which a call to the source in progress may hold: callers stop at once
        release();
    }

    /**
     * Drops the lease and the generator without telling the source: for CRaC's {@code afterRestore},
     * where the snapshot's lease belongs to the environment that took it (and to every restored
     * copy), never to this one. The next ID leases anew, with a new owner token.
     */
    public void forget() {
        lock.lock();
        try {
            Held current = held;
            held = null;
            schedule.forget();
            if (current != null) {
                current.generator.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** For {@link LeasedGeneratorBuilder#startingWith(Lease)}: holds a lease taken by the caller, as if this generator had acquired it. */
    void startWith(Lease lease) {
        lock.lock();
        try {
            Held fresh = hold(lease);
            try {
                checkUsable(lease);
                floorWait.await(lease.window());
            } catch (RuntimeException unusable) {
                giveBack(fresh, unusable); // the caller cannot use this generator: free the slot rather than let it run out
                throw unusable;
            }
        } finally {
            lock.unlock();
        }
    }

    /** A generator with a window in force, renewing or leasing first where needed (inline only). */
    private SnowflakeGenerator readyGenerator() {
        Held current = held;
        long now = clock.millis();
        if (current != null && inForce(current, now)) {
            if (renewInBackground || !dueForRenewal(current, now)) {
                return current.generator;
            }
            // Due, not run out: one thread renews, the others go on issuing from the window in force.
            if (lock.tryLock()) {
                try {
                    if (held == current) {
                        renewInForce(current);
                    }
                } finally {
                    lock.unlock();
                }
            }
            Held after = held;
            if (after != null && inForce(after, clock.millis())) {
                return after.generator;
            }
        }
        if (renewInBackground) { // the owner's thread renews or leases; this caller never waits on it
            throw shutDown ? LeaseRefusals.shutDown() : noWindow(held);
        }
        lock.lock();
        try {
            Held again = held;
            if (again != null && inForce(again, clock.millis())) {
                return again.generator;
            }
            refuseWhileBackingOff(again);
            return renewOrAcquire(again).generator;
        } finally {
            lock.unlock();
        }
    }

    /** Renewing in the background, a call without a window in force: why, and what is being done about it. */
    private LeaseExpiredException noWindow(Held current) {
        return LeaseRefusals.noWindow(current == null ? null : current.lease, current != null && current.generator.isClosed(),
                current == null ? 0 : current.generator.window().expiresAt(), clock.millis(), schedule, source.callInProgressMillis());
    }

    /** Inline, with the lock: after a lease was given back for this clock, fail at once until its Retry-After (NTP fixes it). */
    private void refuseWhileBackingOff(Held current) {
        long now = clock.millis();
        RuntimeException failure = schedule.failure();
        if (!shutDown && current == null && failure instanceof ClockSkewException && schedule.backingOff(now)) {
            throw LeaseRefusals.givenBackForClock((ClockSkewException) failure, now, schedule);
        }
    }

    private static boolean inForce(Held current, long now) {
        return !current.generator.isClosed() && now < current.generator.window().expiresAt();
    }

    /** Less than half the lease left, and the schedule allows a renewal (no failure just now, the rate bound). */
    private boolean dueForRenewal(Held current, long now) {
        return terms.needsRenewal(current.lease.window(), now) && schedule.renewalAllowed(now);
    }

    /** Inline: renews a lease whose window is still in force; a failure other than a loss leaves that window in force. */
    private void renewInForce(Held current) {
        try {
            renew(current);
        } catch (LeaseLostException | ClockSkewException handled) {
            // Dropped or given back already: the blocking path takes it from here.
        } catch (RuntimeException unavailable) {
            // The window in force still holds; when it ends, the blocking path fails closed with the source's exception.
            schedule.inlineRenewalFailed();
        }
    }

    /** With the lock: renews {@code current} and takes the confirmed window if usable; a loss drops it, a skew gives it back. */
    private void renew(Held current) {
        Lease renewed;
        long startedAt = clock.millis();
        try {
            renewed = source.renew(current.lease);
        } catch (LeaseLostException lost) {
            drop(current, lost.getMessage());
            throw lost;
        } catch (ClockSkewException skewed) {
            giveBack(current, skewed);
            throw skewed;
        }
        adopt(current, renewed, startedAt);
        try {
            checkUsable(renewed);
        } catch (ClockSkewException skewed) {
            giveBack(held == null ? current : held, skewed);
            throw skewed;
        }
    }

    /** With the lock, no usable window: renews the same slot if still ours, else leases anew; never holds two slots. */
    private Held renewOrAcquire(Held current) {
        if (shutDown) {
            throw LeaseRefusals.shutDown();
        }
        boolean renewable = current != null && !current.generator.isClosed();
        long now = clock.millis();
        if (renewable && !schedule.renewalIntervalPassed(now)) {
            throw LeaseRefusals.renewedTooRecently(current.lease, now, schedule, terms); // fail closed rather than renew at every call
        }
        try {
            if (renewable) {
                // Run out (say, frozen past it): a renewal's fence condition proves nobody held it since.
                try {
                    renew(current);
                    return held;
                } catch (LeaseLostException lost) {
                    // Taken over: nothing of ours to release. Lease another slot below.
                }
            }
            Held fresh = hold(source.acquire());
            try {
                checkUsable(fresh.lease);
            } catch (ClockSkewException skewed) {
                giveBack(fresh, skewed);
                throw skewed;
            }
            floorWait.await(fresh.lease.window());
            return fresh;
        } catch (RuntimeException failed) {
            schedule.failed(failed);
            throw failed;
        }
    }

    /** With the lock: a lease the source just granted is now ours. */
    private Held hold(Lease lease) {
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(lease.slot()).window(lease.window()).clock(clock).codec(codec).build();
        Held fresh = new Held(lease, generator);
        held = fresh;
        schedule.granted();
        events.granted(lease);
        return fresh;
    }

    /** @throws ClockSkewException when this clock is beyond the terms' tolerance of the source's, or past the window's end */
    private void checkUsable(Lease lease) {
        terms.checkSkew(source.clockSkewMillis(), "the lease source's",
                "the " + lease + " is given back and no slot is leased until the clock is synchronised (NTP)");
        long now = clock.millis();
        if (now >= lease.window().expiresAt()) {
            throw LeaseRefusals.pastWindowEnd(lease, now);
        }
    }

    /**
     * With the lock: takes a renewal the source confirmed. A store never shortens a lease, so an
     * earlier expiry is a broken source: the next holder's floor could lie inside our window.
     *
     * <p>Issued under it only as far as a renewal asked at {@code askedAt} reaches: a store may
     * hold a later expiry, written by a renewal whose clock was refused after its write landed.
     * That expiry stays the next holder's floor; issuing up to it would let this clock run ahead
     * of true time by more than the lease once it jumps.
     */
    private void adopt(Held current, Lease renewed, long askedAt) {
        schedule.renewed(askedAt);
        long storedExpiresAt = renewed.window().expiresAt();
        long inForceUntil = current.generator.window().expiresAt();
        if (storedExpiresAt < inForceUntil) {
            String why = LeaseRefusals.shortenedExpiry(storedExpiresAt, current.generator.window());
            drop(current, why);
            throw new LeaseLostException(why);
        }
        long newExpiresAt = Math.max(inForceUntil, Math.min(storedExpiresAt, askedAt + terms.leaseMillis()));
        current.generator.extendLease(newExpiresAt);
        Lease confirmed = newExpiresAt == storedExpiresAt ? renewed
                : new Lease(renewed.slot(), renewed.owner(), renewed.fence(), current.generator.window());
        held = new Held(confirmed, current.generator);
        events.renewed(confirmed);
    }

    /** With the lock: the slot is no longer ours. Closed first, so not one more ID comes from it. */
    private void drop(Held current, String why) {
        current.generator.close();
        if (held == current) {
            held = null;
        }
        events.lost(current.lease, why);
    }

    /** With the lock: a lease this clock must not issue from is released at once; none other is taken for the Retry-After. */
    private void giveBack(Held current, RuntimeException why) {
        schedule.givenBack(why);
        if (held == current) {
            held = null;
        }
        try {
            releaseClosed(current, "given back: " + why.getMessage());
        } catch (RuntimeException releaseFailed) {
            why.addSuppressed(releaseFailed);
        }
    }

    /** With the lock, {@code current} no longer held: closes its generator and releases it with the last issued ms. */
    private void releaseClosed(Held current, String why) {
        long lastIssued = current.generator.close();
        try {
            source.release(current.lease, lastIssued);
        } catch (LeaseLostException lost) {
            events.lost(current.lease, lost.getMessage());
            throw lost;
        }
        events.released(current.lease, lastIssued, why);
    }

    /** A lease and the generator issuing under it. */
    private static final class Held {
        final Lease lease;
        final SnowflakeGenerator generator;

        Held(Lease lease, SnowflakeGenerator generator) {
            this.lease = lease;
            this.generator = generator;
        }
    }
}
