package dev.snowid.lease;

import dev.snowid.LeaseExpiredException;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.WallClock;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A generator on a lease: what the function and the agent call. It leases a slot on the
 * first ID (never in the constructor: a SnapStart snapshot must not hold one), renews on the
 * request path once less than half of the lease is left, and fails closed: the
 * {@link SnowflakeGenerator} underneath checks every ID's own timestamp against the confirmed
 * window, and is closed the moment the lease is known to be lost.
 *
 * <p>Thread-safe. Issuing is lock-free; talking to the lease source is done by one thread at
 * a time. While one thread renews, the others keep issuing from the window in force; once the
 * window has ended (or there is no lease) callers wait for the one thread that renews or
 * acquires.
 */
public final class LeasedGenerator {

    /** How often one call looks again after the generator it used was closed or ran out under it. */
    private static final int MAX_ROUNDS = 4;
    /** After a failed renewal, the next request-path attempt waits this long (the window is still in force). */
    private static final long RENEWAL_RETRY_MILLIS = 1_000;

    private final LeaseSource source;
    private final LeaseTerms terms;
    private final WallClock clock;
    private final SnowflakeCodec codec;
    private final ReentrantLock lock = new ReentrantLock();

    /** The lease and the generator issuing under it; null when nothing is held. Written under {@link #lock}. */
    private volatile Held held;
    /** Written under {@link #lock}. */
    private volatile long nextRenewalAttemptAt;

    public LeasedGenerator(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
        if (source == null || terms == null || clock == null || codec == null) {
            throw new IllegalArgumentException("a leased generator needs a lease source, terms, a clock and a codec");
        }
        this.source = source;
        this.terms = terms;
        this.clock = clock;
        this.codec = codec;
    }

    /**
     * One ID, under a confirmed lease.
     *
     * @throws dev.snowid.IdUnavailableException when no ID can be issued now (no slot, store down
     *         with the lease run out, clock behind or too far off); nothing was issued
     */
    public long nextId() {
        for (int round = 1; ; round++) {
            SnowflakeGenerator generator = readyGenerator();
            try {
                return generator.nextId();
            } catch (LeaseExpiredException closedOrRunOut) {
                if (round == MAX_ROUNDS) {
                    throw closedOrRunOut;
                }
            }
        }
    }

    /** {@code count} increasing IDs (1 to 4,096), all under one confirmed lease. */
    public long[] nextIds(int count) {
        if (count < 1 || count > SnowflakeCodec.IDS_PER_MILLISECOND) { // before leasing anything for a bad request
            throw new IllegalArgumentException("count " + count + " is out of range: allowed 1 to " + SnowflakeCodec.IDS_PER_MILLISECOND);
        }
        for (int round = 1; ; round++) {
            SnowflakeGenerator generator = readyGenerator();
            try {
                return generator.nextIds(count);
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
     * where one can run (the agent). The request path renews by itself.
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
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Orderly shutdown (or a CRaC checkpoint): closes the generator, so that no ID is issued
     * after, then releases the lease with the last issued ms, so the slot is free at once. Does
     * nothing when no lease is held. A later {@link #nextId()} leases anew.
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
            long lastIssued = Math.max(current.issuedBefore, current.generator.close());
            source.release(current.lease, lastIssued);
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
            if (current != null) {
                current.generator.close();
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
            if (!terms.needsRenewal(current.lease.window(), now)) {
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
            return renewOrAcquire(again).generator;
        } finally {
            lock.unlock();
        }
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
            nextRenewalAttemptAt = clock.millis() + RENEWAL_RETRY_MILLIS;
        }
    }

    /** With the lock: no usable window. Renews the same slot if it is provably still ours, else leases anew. */
    private Held renewOrAcquire(Held current) {
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
        Held fresh = new Held(lease, newGenerator(lease.slot(), lease.window()), 0);
        held = fresh;
        nextRenewalAttemptAt = 0;
        return fresh;
    }

    /** With the lock: takes a renewal the source confirmed. */
    private void adopt(Held current, Lease renewed) {
        nextRenewalAttemptAt = 0;
        long newExpiresAt = renewed.window().expiresAt();
        if (newExpiresAt >= current.generator.window().expiresAt()) {
            current.generator.extendLease(newExpiresAt);
            held = new Held(renewed, current.generator, current.issuedBefore);
            return;
        }
        // The store now holds an earlier expiry than the window in force (the renewal was computed
        // by a clock behind ours, e.g. another function environment for the agent). A generator's
        // window only grows, so replace it by one that starts after every ID issued so far.
        long lastIssued = Math.max(current.issuedBefore, current.generator.close());
        long floor = Math.max(renewed.window().floor(), lastIssued + 1);
        if (floor >= newExpiresAt) {
            held = null; // nothing left to issue from; the slot is let run out
            return;
        }
        held = new Held(renewed, newGenerator(renewed.slot(), LeaseWindow.of(floor, newExpiresAt)), lastIssued);
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

    /** A lease and the generator issuing under it. */
    private static final class Held {
        final Lease lease;
        final SnowflakeGenerator generator;
        /** Unix ms of the last ID issued under this lease by generators it had before this one; 0 if none. */
        final long issuedBefore;

        Held(Lease lease, SnowflakeGenerator generator, long issuedBefore) {
            this.lease = lease;
            this.generator = generator;
            this.issuedBefore = issuedBefore;
        }
    }
}
