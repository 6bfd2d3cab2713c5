package dev.snowid.lease;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseExpiredException;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.WallClock;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A generator on a lease: what the function, the client and the agent call. It leases a slot
 * on the first ID (never in the constructor: a SnapStart snapshot must not hold one), renews once
 * less than half of the lease is left, and fails closed: the {@link SnowflakeGenerator}
 * underneath checks every ID's own timestamp against the confirmed window, and is closed the
 * moment the lease is known to be lost. The protocol it follows: {@code docs/protocol.md}.
 *
 * <p>Who talks to the lease source is a choice ({@link Builder#renewInBackground()}): by default
 * the calls that issue IDs do, inline (the function: a frozen Lambda environment runs no thread);
 * in the background, only the owner's own thread does, through {@link #maintainLease()} (the
 * client's renewer), and calls that issue IDs never wait on the lease source: without a window in
 * force they fail at once.
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
    /** After a failed renewal of a window still in force, the next attempt waits this long. */
    private static final long RETRY_MILLIS = 1_000;
    /** What a caller without a window is told to wait when nothing better is known: about one renewer tick. */
    private static final long NO_WINDOW_RETRY_MILLIS = 100;
    /** The longest a failure keeps the owner's thread from asking the source again. */
    private static final long MAX_BACKOFF_MILLIS = 60_000;
    /** Longest wait for a fresh lease's floor that {@link Builder#waitForFloorUpTo(long)} allows. */
    public static final long MAX_FLOOR_WAIT_MILLIS = 10_000;

    private final LeaseSource source;
    private final LeaseTerms terms;
    private final WallClock clock;
    private final SnowflakeCodec codec;
    private final boolean renewInBackground;
    private final long floorWaitMillis;
    private final LeaseEvents events;
    private final ReentrantLock lock = new ReentrantLock();

    /** The lease and the generator issuing under it; null when nothing is held. Written under {@link #lock}. */
    private volatile Held held;
    /** After a failed renewal of a window in force: no renewal before this (local ms). Written under {@link #lock}. */
    private volatile long nextRenewalAttemptAt;
    /** After a failure (background) or a lease given back: no renew-or-acquire before this (local ms). Under {@link #lock}. */
    private volatile long nextAcquireAt;
    /** Local ms of the latest confirmed acquisition or renewal, for the renewal rate bound. Under {@link #lock}. */
    private volatile long lastConfirmedAt = Long.MIN_VALUE;
    /** The source's latest failure and when (local ms); null after a success. Written under {@link #lock}. */
    private volatile RuntimeException sourceFailure;
    private volatile long sourceFailedAt;
    /** {@code System.nanoTime()} when the call to the source in progress began; 0 when none is. For messages. */
    private volatile long callStartedNanos;
    /** Set by {@link #shutdown()}: no lease is taken after it. */
    private volatile boolean shutDown;

    /** Renews on the request path and never waits for a floor: the function's generator. */
    public LeasedGenerator(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
        this(builder(source, terms, clock, codec));
    }

    private LeasedGenerator(Builder builder) {
        this.source = builder.source;
        this.terms = builder.terms;
        this.clock = builder.clock;
        this.codec = builder.codec;
        this.renewInBackground = builder.renewInBackground;
        this.floorWaitMillis = builder.floorWaitMillis;
        this.events = builder.events;
    }

    /** A generator with options beyond the constructor's; without any, the same as the constructor. */
    public static Builder builder(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
        return new Builder(source, terms, clock, codec);
    }

    /**
     * One ID, under a confirmed lease.
     *
     * @throws dev.snowid.IdUnavailableException when no ID can be issued now (no slot, store down
     *         with the lease run out, clock behind or too far off); nothing was issued
     */
    public long nextId() {
        return issue(NEXT_ID);
    }

    /** {@code count} increasing IDs (1 to 4,096), all under one confirmed lease. */
    public long[] nextIds(int count) {
        if (count < 1 || count > SnowflakeCodec.IDS_PER_MILLISECOND) { // before leasing anything for a bad request
            throw new IllegalArgumentException("count " + count + " is out of range: allowed 1 to " + SnowflakeCodec.IDS_PER_MILLISECOND);
        }
        return issue(new NextIds(count));
    }

    /**
     * Issues from a generator whose window is in force. The generator may be closed or run out
     * between handing it out and issuing (a loss, a release, the end of the window): then look
     * again, a bounded number of times.
     */
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
     * For the owner's own thread (the client's renewer calls it every tick): renews the lease when
     * less than half of it is left; renews it, or leases anew, when its window has ended or nothing
     * is held. After a failure it leaves the source alone for as long as the failure's Retry-After
     * says (at most a minute), so that calling it often, or at every failed ID, costs nothing.
     * With {@link Builder#renewInBackground()} it is the only way this generator talks to its source.
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
                        nextRenewalAttemptAt = clock.millis() + Math.min(RETRY_MILLIS, retryAfter(failed));
                        failed(failed);
                    }
                    throw failed;
                }
            }
            if (now < nextAcquireAt) {
                return false; // backing off after a failure; callers fail closed meanwhile
            }
            if (current != null && !current.generator.isClosed() && !renewalIntervalPassed(now)) {
                return false; // renewed a moment ago and run out already: a clock far ahead; renewals stay rate-bound
            }
            try {
                renewOrAcquire(current);
            } catch (RuntimeException failed) {
                backOff(failed);
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
     * would otherwise find nothing held and lease a fresh slot that nobody releases.
     *
     * @throws LeaseLostException when the slot was no longer ours anyway
     * @throws LeaseStoreUnavailableException when the release did not reach the store; the lease
     *         then simply runs out
     */
    public void shutdown() {
        shutDown = true; // before the lock, which a call to the source in progress may hold: callers stop at once
        lock.lock();
        try {
            release();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Drops the lease and the generator without telling the source: for CRaC's
     * {@code afterRestore}, where the lease in the snapshot belongs to the environment that took it
     * (and to every other restored copy), never to this one. The next ID leases anew, with a new
     * owner token.
     */
    public void forget() {
        lock.lock();
        try {
            Held current = held;
            held = null;
            nextRenewalAttemptAt = 0;
            nextAcquireAt = 0;
            lastConfirmedAt = Long.MIN_VALUE;
            sourceFailure = null; // the snapshot's failures are not this process's
            if (current != null) {
                current.generator.close();
            }
        } finally {
            lock.unlock();
        }
    }

    /** For {@link Builder#startingWith(Lease)}: holds a lease taken by the caller, as if this generator had acquired it. */
    private void startWith(Lease lease) {
        lock.lock();
        try {
            Held fresh = hold(lease);
            try {
                checkUsable(lease);
                awaitFloor(lease.window());
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
        if (renewInBackground) {
            throw noWindow(held); // the owner's thread renews or leases; this caller never waits on it
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
        if (shutDown) {
            return shutDownException();
        }
        long now = clock.millis();
        String what = current == null ? "no lease is held" : current.generator.isClosed()
                ? "the lease on slot " + current.lease.slot() + " was given up"
                : "the lease on slot " + current.lease.slot() + " expired at " + current.generator.window().expiresAt()
                        + " (unix ms), " + (now - current.generator.window().expiresAt()) + " ms ago";
        long started = callStartedNanos;
        RuntimeException failure = sourceFailure;
        String state = "";
        long retryAfter = NO_WINDOW_RETRY_MILLIS;
        if (failure != null) {
            state = "the lease source failed " + Math.max(0, now - sourceFailedAt) + " ms ago (" + failure.getMessage() + ")";
            retryAfter = Math.max(NO_WINDOW_RETRY_MILLIS, nextAcquireAt - now);
        }
        if (started != 0) {
            state += (state.isEmpty() ? "" : "; ") + "a call to the lease source has been in progress for "
                    + (System.nanoTime() - started) / 1_000_000 + " ms";
        } else if (failure == null) {
            state = "the renewer is about to renew or lease";
        }
        return new LeaseExpiredException(what + " and " + state + "; no ID is issued until a renewal or a new lease is"
                + " confirmed (this call does not wait for it)", retryAfter, failure);
    }

    /**
     * Inline, with the lock: after a lease was given back for this clock, callers fail at once
     * until its Retry-After has passed (a clock is fixed by NTP, not by asking again at once).
     */
    private void refuseWhileBackingOff(Held current) {
        long now = clock.millis();
        RuntimeException failure = sourceFailure;
        if (!shutDown && current == null && failure instanceof ClockSkewException && now < nextAcquireAt) {
            throw new LeaseExpiredException("no lease is held: the last one was given back " + (now - sourceFailedAt) + " ms ago ("
                    + failure.getMessage() + "); no lease is taken for another " + (nextAcquireAt - now) + " ms",
                    nextAcquireAt - now, failure);
        }
    }

    private static boolean inForce(Held current, long now) {
        return !current.generator.isClosed() && now < current.generator.window().expiresAt();
    }

    /**
     * Less than half the lease left, no failed attempt in the last moment, and the last confirmation
     * at least a quarter lease ago (or the clock stepped back past it): the rate bound that holds
     * whatever this clock's skew.
     */
    private boolean dueForRenewal(Held current, long now) {
        return terms.needsRenewal(current.lease.window(), now) && now >= nextRenewalAttemptAt && renewalIntervalPassed(now);
    }

    private boolean renewalIntervalPassed(long now) {
        long last = lastConfirmedAt;
        return last == Long.MIN_VALUE || now < last || now - last >= terms.minRenewalIntervalMillis();
    }

    /** Inline: renews a lease whose window is still in force; a failure other than a loss leaves that window in force. */
    private void renewInForce(Held current) {
        try {
            renew(current);
        } catch (LeaseLostException | ClockSkewException handled) {
            // Dropped or given back already: the blocking path takes it from here.
        } catch (RuntimeException unavailable) {
            // Not fatal yet: the window in force still holds. When it ends, the blocking path
            // tries again and fails closed with the source's exception.
            nextRenewalAttemptAt = clock.millis() + RETRY_MILLIS;
        }
    }

    /**
     * With the lock: renews {@code current} and takes the confirmed window if it is usable; a loss
     * drops it, a clock the source finds too far off gives it back.
     */
    private void renew(Held current) {
        Lease renewed;
        long startedAt = clock.millis();
        try {
            renewed = call(new Renewal(source, current.lease));
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

    /**
     * With the lock: no usable window. Renews the same slot if it is provably still ours, else (it
     * was lost) leases anew. Acquires only with nothing held, so it never holds two slots.
     */
    private Held renewOrAcquire(Held current) {
        if (shutDown) {
            throw shutDownException();
        }
        boolean renewable = current != null && !current.generator.isClosed();
        long now = clock.millis();
        if (renewable && !renewalIntervalPassed(now)) {
            // Renewed less than a quarter lease ago and already run out: this clock runs ahead of the
            // source's by most of a lease. Fail closed rather than renew at every call.
            throw new LeaseExpiredException("the lease on slot " + current.lease.slot() + " was renewed "
                    + (now - lastConfirmedAt) + " ms ago and its window has already ended by this clock; renewals are"
                    + " limited to one per " + terms.minRenewalIntervalMillis() + " ms (a quarter lease)",
                    lastConfirmedAt + terms.minRenewalIntervalMillis() - now, null);
        }
        try {
            if (renewable) {
                // The window ran out (say, the process was frozen past it). A renewal is conditional on
                // our owner token and fence; the fence grows on every acquisition, so if it succeeds
                // nobody has held the slot since, and the generator may go on where it stopped.
                try {
                    renew(current);
                    return held;
                } catch (LeaseLostException lost) {
                    // Taken over: nothing of ours to release. Lease another slot below.
                }
            }
            Held fresh = hold(call(new Acquisition(source)));
            try {
                checkUsable(fresh.lease);
            } catch (ClockSkewException skewed) {
                giveBack(fresh, skewed);
                throw skewed;
            }
            awaitFloor(fresh.lease.window());
            return fresh;
        } catch (RuntimeException failed) {
            failed(failed);
            throw failed;
        }
    }

    /** With the lock: a lease the source just granted is now ours. */
    private Held hold(Lease lease) {
        Held fresh = new Held(lease, newGenerator(lease.slot(), lease.window()));
        held = fresh;
        lastConfirmedAt = clock.millis();
        nextRenewalAttemptAt = 0;
        sourceFailure = null;
        events.granted(lease);
        return fresh;
    }

    /**
     * A lease the source confirmed is usable only if this clock agrees with the source's: within
     * the terms' tolerance (where the source measured it), and not already past the window's end.
     *
     * @throws ClockSkewException saying by how much
     */
    private void checkUsable(Lease lease) {
        OptionalLong skew = source.clockSkewMillis();
        if (skew.isPresent() && !terms.toleratesSkew(skew.getAsLong())) {
            long measured = skew.getAsLong();
            throw new ClockSkewException("this clock is " + Math.abs(measured) + " ms " + (measured > 0 ? "ahead of" : "behind")
                    + " the lease source's, allowed " + terms.toleratedSkewMillis() + " ms (maxClockSkewMillis "
                    + terms.maxClockSkewMillis() + " plus " + LeaseTerms.DATE_HEADER_RESOLUTION_MILLIS + " ms for the Date header's"
                    + " whole seconds); the " + lease + " is given back and no slot is leased until the clock is synchronised (NTP)",
                    measured);
        }
        long now = clock.millis();
        long expiresAt = lease.window().expiresAt();
        if (now >= expiresAt) {
            throw new ClockSkewException("this clock (" + now + ", unix ms) is already past the end of the " + lease
                    + " the lease source has just confirmed, by " + (now - expiresAt) + " ms: it runs ahead of the source's by at least"
                    + " that plus the lease; the lease is given back and no slot is leased until the clock is synchronised (NTP)",
                    now - expiresAt);
        }
    }

    /**
     * With the lock: a fresh lease's floor is the previous holder's expiry, set by another clock
     * (another function environment's, or the previous agent's). A clock up to
     * {@link Builder#waitForFloorUpTo(long)} behind it waits; further behind, the generator
     * refuses with the clock's message.
     */
    private void awaitFloor(LeaseWindow window) {
        long behind = window.floor() - clock.millis();
        if (behind <= 0 || floorWaitMillis == 0) {
            return;
        }
        if (behind > floorWaitMillis) {
            throw new ClockBehindException("the new lease's floor (the previous holder's expiry)", behind, floorWaitMillis);
        }
        // A guard against a clock that stopped: never wait much longer than the bound.
        long deadline = System.nanoTime() + (floorWaitMillis + 1_000) * 1_000_000;
        while ((behind = window.floor() - clock.millis()) > 0 && System.nanoTime() - deadline < 0) {
            try {
                Thread.sleep(Math.min(behind, 50));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // the generator refuses until the clock has reached the floor
            }
        }
    }

    /** With the lock: one call to the source, marked as in progress for callers' messages. */
    private <T> T call(SourceCall<T> call) {
        callStartedNanos = System.nanoTime() | 1; // never 0, which means "none"
        try {
            return call.run();
        } finally {
            callStartedNanos = 0;
        }
    }

    /** With the lock: remembers a failure of the source (not a loss), for callers' messages. */
    private void failed(RuntimeException failure) {
        if (!(failure instanceof LeaseLostException)) {
            sourceFailure = failure;
            sourceFailedAt = clock.millis();
        }
    }

    /** With the lock, the owner's thread: no renew-or-acquire before the failure's Retry-After (at most one lease). */
    private void backOff(RuntimeException failure) {
        if (!(failure instanceof LeaseLostException)) {
            nextAcquireAt = Math.max(nextAcquireAt, clock.millis() + retryAfter(failure));
        }
    }

    /** The failure's Retry-After, bounded: a source asking for more than a minute is asked again after one. */
    private static long retryAfter(RuntimeException failure) {
        long asked = failure instanceof IdUnavailableException ? ((IdUnavailableException) failure).retryAfterMillis() : RETRY_MILLIS;
        return Math.max(1, Math.min(asked, MAX_BACKOFF_MILLIS));
    }

    /**
     * With the lock: takes a renewal the source confirmed. A store keeps the later of the stored
     * and the asked-for expiry (docs/protocol.md), so a confirmed expiry earlier than the window in
     * force means a source that breaks the protocol: the next holder's floor could lie inside our
     * window, so not one more ID comes from it.
     */
    private void adopt(Held current, Lease renewed, long askedAt) {
        nextRenewalAttemptAt = 0;
        nextAcquireAt = 0;
        sourceFailure = null;
        lastConfirmedAt = askedAt;
        long newExpiresAt = renewed.window().expiresAt();
        if (newExpiresAt < current.generator.window().expiresAt()) {
            String why = "the lease source confirmed an expiry (" + newExpiresAt + ") earlier than the window in force "
                    + current.generator.window() + "; a store never shortens a lease, so this one is given up";
            drop(current, why);
            throw new LeaseLostException(why);
        }
        current.generator.extendLease(newExpiresAt);
        held = new Held(renewed, current.generator);
        events.renewed(renewed);
    }

    /** With the lock: the slot is no longer ours. Closed first, so not one more ID comes from it. */
    private void drop(Held current, String why) {
        current.generator.close();
        if (held == current) {
            held = null;
        }
        events.lost(current.lease, why);
    }

    /**
     * With the lock: a lease this holder must not issue from (its clock disagrees with the
     * source's): closed, then released with the last issued ms, so the slot is free at once and
     * this holder takes no other for the failure's Retry-After.
     */
    private void giveBack(Held current, RuntimeException why) {
        failed(why); // first: a caller that finds nothing held is told why
        nextAcquireAt = Math.max(nextAcquireAt, clock.millis() + retryAfter(why));
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
            call(new Release(source, current.lease, lastIssued));
        } catch (LeaseLostException lost) {
            events.lost(current.lease, lost.getMessage());
            throw lost;
        }
        events.released(current.lease, lastIssued, why);
    }

    private static LeaseExpiredException shutDownException() {
        return new LeaseExpiredException("the generator was shut down and its lease released; it issues nothing more");
    }

    private SnowflakeGenerator newGenerator(Slot slot, LeaseWindow window) {
        return SnowflakeGenerator.forSlot(slot).window(window).clock(clock).codec(codec).build();
    }

    /** Options of a {@link LeasedGenerator}; the defaults are the function's. */
    public static final class Builder {
        private final LeaseSource source;
        private final LeaseTerms terms;
        private final WallClock clock;
        private final SnowflakeCodec codec;
        private boolean renewInBackground;
        private long floorWaitMillis;
        private LeaseEvents events = LeaseEvents.NONE;
        private Lease first;

        private Builder(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
            if (source == null || terms == null || clock == null || codec == null) {
                throw new IllegalArgumentException("a leased generator needs a lease source, terms, a clock and a codec");
            }
            this.source = source;
            this.terms = terms;
            this.clock = clock;
            this.codec = codec;
        }

        /**
         * Only {@link LeasedGenerator#maintainLease()}, called by the owner's own thread, talks to
         * the source; calls that issue IDs never do, and without a window in force they fail at once
         * (with the reason, and the source's latest failure as the cause).
         */
        public Builder renewInBackground() {
            this.renewInBackground = true;
            return this;
        }

        /**
         * When the clock is at most this far behind a fresh lease's floor, the call that took the
         * lease waits for the floor instead of refusing (0, the default: refuse beyond the
         * generator's few ms of tolerance).
         */
        public Builder waitForFloorUpTo(long millis) {
            if (millis < 0 || millis > MAX_FLOOR_WAIT_MILLIS) {
                throw new IllegalArgumentException("floor wait " + millis + " ms is out of range: allowed 0 to "
                        + MAX_FLOOR_WAIT_MILLIS + " ms");
            }
            this.floorWaitMillis = millis;
            return this;
        }

        /** Who is told of every grant, renewal, release and loss (audit lines); default nobody. */
        public Builder events(LeaseEvents events) {
            if (events == null) {
                throw new IllegalArgumentException("events is null; LeaseEvents.NONE tells nobody");
            }
            this.events = events;
            return this;
        }

        /**
         * Starts out holding {@code lease}, one the caller has just taken from the same source
         * (say, to fail at start-up when none can be had): the first ID issues under it instead
         * of acquiring another. {@link #build()} waits for its floor like an acquisition would,
         * and gives it back when it is unusable here.
         */
        public Builder startingWith(Lease lease) {
            if (lease == null) {
                throw new IllegalArgumentException("startingWith needs a lease");
            }
            this.first = lease;
            return this;
        }

        /**
         * @throws dev.snowid.ClockBehindException with {@link #startingWith(Lease)}: the clock is
         *         further behind the lease's floor than {@link #waitForFloorUpTo(long)}; the lease is released
         * @throws ClockSkewException with {@link #startingWith(Lease)}: the clock is too far from the
         *         source's, or already past the lease's end; the lease is released
         */
        public LeasedGenerator build() {
            LeasedGenerator generator = new LeasedGenerator(this);
            if (first != null) {
                generator.startWith(first);
            }
            return generator;
        }
    }

    /** What one call issues. */
    private interface Issue<T> {
        T from(SnowflakeGenerator generator);
    }

    private static final Issue<Long> NEXT_ID = new Issue<Long>() {
        @Override
        public Long from(SnowflakeGenerator generator) {
            return generator.nextId();
        }
    };

    private static final class NextIds implements Issue<long[]> {
        private final int count;

        NextIds(int count) {
            this.count = count;
        }

        @Override
        public long[] from(SnowflakeGenerator generator) {
            return generator.nextIds(count);
        }
    }

    /** One call to the lease source (classes, not lambdas, for the same reason as {@link Issue}). */
    private interface SourceCall<T> {
        T run();
    }

    private static final class Acquisition implements SourceCall<Lease> {
        private final LeaseSource source;

        Acquisition(LeaseSource source) {
            this.source = source;
        }

        @Override
        public Lease run() {
            return source.acquire();
        }
    }

    private static final class Renewal implements SourceCall<Lease> {
        private final LeaseSource source;
        private final Lease lease;

        Renewal(LeaseSource source, Lease lease) {
            this.source = source;
            this.lease = lease;
        }

        @Override
        public Lease run() {
            return source.renew(lease);
        }
    }

    private static final class Release implements SourceCall<Void> {
        private final LeaseSource source;
        private final Lease lease;
        private final long lastIssued;

        Release(LeaseSource source, Lease lease, long lastIssued) {
            this.source = source;
            this.lease = lease;
            this.lastIssued = lastIssued;
        }

        @Override
        public Void run() {
            source.release(lease, lastIssued);
            return null;
        }
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
