package dev.snowid.lease;

import dev.snowid.ClockBehindException;
import dev.snowid.LeaseExpiredException;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.WallClock;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A generator on a lease: what the function, the client and the agent call. It leases a slot
 * on the first ID (never in the constructor: a SnapStart snapshot must not hold one), renews once
 * less than half of the lease is left, and fails closed: the {@link SnowflakeGenerator}
 * underneath checks every ID's own timestamp against the confirmed window, and is closed the
 * moment the lease is known to be lost. The protocol it follows: {@code docs/protocol.md}.
 *
 * <p>Who renews is a choice ({@link Builder#renewInBackground()}): by default the first call
 * that finds the lease due renews it, inline (the function: a frozen Lambda environment runs no
 * thread); in the background, only {@link #renewIfDue()} does, from the caller's own daemon
 * thread (the client), so issuing calls never wait on the lease source while a window is in force.
 *
 * <p>States and transitions ("window" is the confirmed {@code [floor, expiresAt)}):
 * <table>
 * <caption>lease states</caption>
 * <tr><th>state</th><th>event</th><th>next state</th></tr>
 * <tr><td>none</td><td>an ID is asked for</td><td>acquire → held (or the source's exception, nothing issued)</td></tr>
 * <tr><td>held, in force</td><td>an ID is asked for</td><td>held: the ID comes from the window</td></tr>
 * <tr><td>held, less than half left</td><td>an ID (inline) or {@link #renewIfDue()} (background)</td>
 *     <td>renewed: the same generator, a later expiry; on failure the window in force stays</td></tr>
 * <tr><td>held, run out</td><td>an ID is asked for</td><td>renew the same slot (owner + fence prove nobody held it since),
 *     else acquire anew</td></tr>
 * <tr><td>held</td><td>the source says lost, or confirms an earlier expiry</td><td>none: closed first, not one more ID</td></tr>
 * <tr><td>held</td><td>{@link #release()}</td><td>none: closed, then released with the last issued ms</td></tr>
 * <tr><td>held</td><td>{@link #forget()} (CRaC restore)</td><td>none: closed, the source is not told</td></tr>
 * <tr><td>any</td><td>{@link #shutdown()}</td><td>shut down: released, and no lease is ever taken again</td></tr>
 * </table>
 *
 * <p>Thread-safe. Issuing is lock-free; talking to the lease source is done by one thread at
 * a time. While one thread renews, the others keep issuing from the window in force; once the
 * window has ended (or there is no lease) callers wait for the one thread that renews or
 * acquires.
 */
public final class LeasedGenerator {

    /** How often one call looks again after the generator it used was closed or ran out under it. */
    private static final int MAX_ROUNDS = 4;
    /**
     * After a failed renewal, the next request-path attempt waits this long (the window is still
     * in force); renewing in the background, a call with no window in force fails at once for
     * this long after the source failed, rather than queueing for another round trip.
     */
    private static final long RETRY_MILLIS = 1_000;
    /** Longest wait for a fresh lease's floor that {@link Builder#waitForFloorUpTo(long)} allows. */
    public static final long MAX_FLOOR_WAIT_MILLIS = 10_000;

    private final LeaseSource source;
    private final LeaseTerms terms;
    private final WallClock clock;
    private final SnowflakeCodec codec;
    private final boolean renewInBackground;
    private final long floorWaitMillis;
    private final ReentrantLock lock = new ReentrantLock();

    /** The lease and the generator issuing under it; null when nothing is held. Written under {@link #lock}. */
    private volatile Held held;
    /** Written under {@link #lock}. */
    private volatile long nextRenewalAttemptAt;
    /** The source's latest failure and when ({@code System.nanoTime()}); null after a success. Written under {@link #lock}. */
    private volatile RuntimeException sourceFailure;
    private volatile long sourceFailedAtNanos;
    /** Set by {@link #shutdown()}, under {@link #lock}: no lease is taken after it. */
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
     * Renews the lease if less than half of it is left (or it has run out), for a daemon thread
     * where one can run (the agent). Renewing on the request path, calls renew by themselves too.
     *
     * @return whether a renewal was confirmed
     * @throws LeaseLostException when the slot is no longer ours; the generator is already closed
     * @throws LeaseStoreUnavailableException when the source cannot be reached; the lease stays in
     *         force until its window ends
     */
    public boolean renewIfDue() {
        lock.lock();
        try {
            Held current = held;
            if (current == null || !terms.needsRenewal(current.lease.window(), clock.millis())) {
                return false;
            }
            try {
                adopt(current, source.renew(current.lease));
                return true;
            } catch (LeaseLostException lost) {
                drop(current);
                throw lost;
            } catch (RuntimeException unavailable) {
                failed(unavailable);
                throw unavailable;
            }
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
            source.release(current.lease, current.generator.close());
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
        lock.lock();
        try {
            shutDown = true;
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
            held = new Held(lease, newGenerator(lease.slot(), lease.window()));
            try {
                awaitFloor(lease.window());
            } catch (RuntimeException unusable) {
                try {
                    release(); // the caller cannot use this generator: free the slot rather than let it run out
                } catch (RuntimeException releaseFailed) {
                    unusable.addSuppressed(releaseFailed);
                }
                throw unusable;
            }
        } finally {
            lock.unlock();
        }
    }

    /** A generator with a window in force, renewing or leasing first where needed. */
    private SnowflakeGenerator readyGenerator() {
        Held current = held;
        long now = clock.millis();
        if (current != null && inForce(current, now)) {
            if (renewInBackground || !terms.needsRenewal(current.lease.window(), now)) {
                return current.generator;
            }
            // Due, not run out: one thread renews, the others go on issuing from the window in force.
            if (now >= nextRenewalAttemptAt && lock.tryLock()) {
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
        lock.lock();
        try {
            Held again = held;
            if (again != null && inForce(again, clock.millis())) {
                return again.generator;
            }
            if (renewInBackground) {
                refuseWhileTheSourceJustFailed(again);
            }
            return renewOrAcquire(again).generator;
        } finally {
            lock.unlock();
        }
    }

    /**
     * With the lock, renewing in the background: the source failed a moment ago (the daemon keeps
     * trying), so fail closed at once instead of making every caller wait for another round trip.
     */
    private void refuseWhileTheSourceJustFailed(Held current) {
        RuntimeException failure = sourceFailure;
        long sinceMillis = (System.nanoTime() - sourceFailedAtNanos) / 1_000_000;
        if (shutDown || failure == null || sinceMillis >= RETRY_MILLIS) {
            return;
        }
        String what = current == null ? "no lease is held" : "the lease on slot " + current.lease.slot() + " expired at "
                + current.generator.window().expiresAt() + " (unix ms)";
        throw new LeaseExpiredException(what + " and the lease source failed " + sinceMillis + " ms ago (" + failure.getMessage()
                + "); no ID is issued until a renewal or a new lease is confirmed", RETRY_MILLIS - sinceMillis, failure);
    }

    private static boolean inForce(Held current, long now) {
        return !current.generator.isClosed() && now < current.generator.window().expiresAt();
    }

    /** Renews a lease whose window is still in force; a failure other than a loss leaves that window in force. */
    private void renewInForce(Held current) {
        try {
            adopt(current, source.renew(current.lease));
        } catch (LeaseLostException lost) {
            drop(current);
        } catch (RuntimeException unavailable) {
            // Not fatal yet: the window in force still holds. When it ends, the blocking path
            // tries again and fails closed with the source's exception.
            nextRenewalAttemptAt = clock.millis() + RETRY_MILLIS;
        }
    }

    /** With the lock: no usable window. Renews the same slot if it is provably still ours, else leases anew. */
    private Held renewOrAcquire(Held current) {
        if (shutDown) {
            throw new LeaseExpiredException("the generator was shut down and its lease released; it issues nothing more");
        }
        try {
            if (current != null && !current.generator.isClosed()) {
                // The window ran out (say, the process was frozen past it). A renewal is conditional on
                // our owner token and fence; the fence grows on every acquisition, so if it succeeds
                // nobody has held the slot since, and the generator may go on where it stopped.
                try {
                    adopt(current, source.renew(current.lease));
                    Held renewed = held;
                    if (renewed != null && inForce(renewed, clock.millis())) {
                        return renewed;
                    }
                } catch (LeaseLostException lost) {
                    drop(current);
                }
            }
            Lease lease = source.acquire();
            held = new Held(lease, newGenerator(lease.slot(), lease.window()));
            nextRenewalAttemptAt = 0;
            sourceFailure = null;
        } catch (RuntimeException unavailable) {
            failed(unavailable);
            throw unavailable;
        }
        Held fresh = held;
        awaitFloor(fresh.lease.window());
        return fresh;
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

    /** With the lock: remembers a failure of the source (not a loss), for {@link #refuseWhileTheSourceJustFailed}. */
    private void failed(RuntimeException failure) {
        if (!(failure instanceof LeaseLostException)) {
            sourceFailure = failure;
            sourceFailedAtNanos = System.nanoTime();
        }
    }

    /**
     * With the lock: takes a renewal the source confirmed. A store keeps the later of the stored
     * and the asked-for expiry (docs/protocol.md), so a confirmed expiry earlier than the window in
     * force means a source that breaks the protocol: the next holder's floor could lie inside our
     * window, so not one more ID comes from it.
     */
    private void adopt(Held current, Lease renewed) {
        nextRenewalAttemptAt = 0;
        sourceFailure = null;
        long newExpiresAt = renewed.window().expiresAt();
        if (newExpiresAt < current.generator.window().expiresAt()) {
            drop(current);
            throw new LeaseLostException("the lease source confirmed an expiry (" + newExpiresAt + ") earlier than the window in force "
                    + current.generator.window() + "; a store never shortens a lease, so this one is given up");
        }
        current.generator.extendLease(newExpiresAt);
        held = new Held(renewed, current.generator);
    }

    /** With the lock: the slot is no longer ours. Closed first, so not one more ID comes from it. */
    private void drop(Held current) {
        current.generator.close();
        if (held == current) {
            held = null;
        }
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
         * Only {@link LeasedGenerator#renewIfDue()} renews, called by the owner's own thread:
         * issuing calls never talk to the source while a window is in force. Once it has ended,
         * a call renews or leases itself (failing at once for a second after the source failed).
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

        /**
         * Starts out holding {@code lease}, one the caller has just taken from the same source
         * (say, to fail at start-up when none can be had): the first ID issues under it instead
         * of acquiring another. {@link #build()} waits for its floor like an acquisition would,
         * and releases it when the clock is too far behind that floor to use it.
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
         */
        public LeasedGenerator build() {
            LeasedGenerator generator = new LeasedGenerator(this);
            if (first != null) {
                generator.startWith(first);
            }
            return generator;
        }
    }

    /**
     * What one call issues. Classes rather than lambdas: the agent leases inside a JVM's start-up,
     * where the first lambda's bootstrap costs tens of ms.
     */
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
