package dev.snowid.lease;

import dev.snowid.IdUnavailableException;
import dev.snowid.WallClock;

/**
 * When a {@link LeasedGenerator} may next talk to its source: the renewal rate bound, the retry
 * after a failed renewal of a window still in force, the back-off after a failure with nothing in
 * force, and the source's latest failure (for callers' messages). Times are this clock's ms.
 *
 * <p>Written by one thread at a time (the generator's lock); read by any thread.
 */
final class LeaseSchedule {

    /** After a failed renewal of a window still in force, the next attempt waits this long. */
    static final long RETRY_MILLIS = 1_000;
    /** What a caller without a window is told to wait when nothing better is known: about one renewer tick. */
    static final long NO_WINDOW_RETRY_MILLIS = 100;
    /** The longest a failure keeps the owner's thread from asking the source again. */
    static final long MAX_BACKOFF_MILLIS = 60_000;

    private static final long NEVER = Long.MIN_VALUE;

    private final LeaseTerms terms;
    private final WallClock clock;

    /** After a failed renewal of a window in force: no renewal before this. */
    private volatile long nextRenewalAttemptAt;
    /** After a failure (background) or a lease given back: no renew-or-acquire before this. */
    private volatile long nextAcquireAt;
    /**
     * When {@link #nextAcquireAt} was set. A clock that stepped back before it (NTP fixing a clock
     * that was far ahead, the very fault a give-back for skew waits for) ends the back-off: else
     * it would last as long as the clock was ahead, not the bounded Retry-After.
     */
    private volatile long backOffSetAt;
    /** The latest confirmed acquisition or renewal, for the renewal rate bound. */
    private volatile long lastConfirmedAt = NEVER;
    /** The source's latest failure (not a loss) and when; null after a success. */
    private volatile RuntimeException failure;
    private volatile long failedAt;

    LeaseSchedule(LeaseTerms terms, WallClock clock) {
        this.terms = terms;
        this.clock = clock;
    }

    /** The source has just granted a lease. */
    void granted() {
        lastConfirmedAt = clock.millis();
        nextRenewalAttemptAt = 0;
        failure = null;
    }

    /** The source confirmed a renewal asked for at {@code askedAt}. */
    void renewed(long askedAt) {
        nextRenewalAttemptAt = 0;
        nextAcquireAt = 0;
        failure = null;
        lastConfirmedAt = askedAt;
    }

    /** The owner's thread failed to renew a window still in force: try again soon, within a second. */
    void renewalFailed(RuntimeException failed) {
        nextRenewalAttemptAt = clock.millis() + Math.min(RETRY_MILLIS, retryAfter(failed));
        failed(failed);
    }

    /** An inline renewal of a window still in force failed: the next attempt waits {@link #RETRY_MILLIS}. */
    void inlineRenewalFailed() {
        nextRenewalAttemptAt = clock.millis() + RETRY_MILLIS;
    }

    /** Remembers a failure of the source (a loss is not one), for callers' messages. */
    void failed(RuntimeException failed) {
        if (!(failed instanceof LeaseLostException)) {
            failure = failed;
            failedAt = clock.millis();
        }
    }

    /** The owner's thread: no renew-or-acquire before the failure's Retry-After (a loss is not one). */
    void backOff(RuntimeException failed) {
        if (!(failed instanceof LeaseLostException)) {
            backOffUntil(retryAfter(failed));
        }
    }

    /** A lease was given back for {@code why}: remembered, and no other taken for its Retry-After. */
    void givenBack(RuntimeException why) {
        failed(why); // first: a caller that finds nothing held is told why
        backOffUntil(retryAfter(why));
    }

    private void backOffUntil(long retryAfterMillis) {
        long now = clock.millis();
        nextAcquireAt = Math.max(acquireAllowedAt(now), now + retryAfterMillis);
        backOffSetAt = now;
    }

    /** {@link #nextAcquireAt}, unless this clock stepped back before the back-off was set: then now. */
    private long acquireAllowedAt(long now) {
        return now < backOffSetAt ? now : nextAcquireAt;
    }

    /** CRaC restore: the snapshot's schedule and failures are not this process's. */
    void forget() {
        nextRenewalAttemptAt = 0;
        nextAcquireAt = 0;
        backOffSetAt = 0;
        lastConfirmedAt = NEVER;
        failure = null;
    }

    /** No failed renewal in the last moment, and the rate bound allows one. */
    boolean renewalAllowed(long now) {
        return now >= nextRenewalAttemptAt && renewalIntervalPassed(now);
    }

    /**
     * The last confirmation was at least a quarter lease ago (or the clock stepped back past it):
     * the rate bound that holds whatever this clock's skew.
     */
    boolean renewalIntervalPassed(long now) {
        long last = lastConfirmedAt;
        return last == NEVER || now < last || now - last >= terms.minRenewalIntervalMillis();
    }

    /** Backing off after a failure: callers fail closed meanwhile. */
    boolean backingOff(long now) {
        return now < acquireAllowedAt(now);
    }

    /** How long until a renew-or-acquire is allowed again; at most 0 when it is now. */
    long backOffLeftMillis(long now) {
        return acquireAllowedAt(now) - now;
    }

    /** How long until the rate bound allows the next renewal. */
    long renewalIntervalLeftMillis(long now) {
        return lastConfirmedAt + terms.minRenewalIntervalMillis() - now;
    }

    long sinceConfirmedMillis(long now) {
        return now - lastConfirmedAt;
    }

    /** The source's latest failure, or null after a success. */
    RuntimeException failure() {
        return failure;
    }

    long sinceFailureMillis(long now) {
        return now - failedAt;
    }

    /** What a caller without a window in force is told to wait. */
    long noWindowRetryAfterMillis(long now) {
        return failure == null ? NO_WINDOW_RETRY_MILLIS : Math.max(NO_WINDOW_RETRY_MILLIS, acquireAllowedAt(now) - now);
    }

    /** The failure's Retry-After, bounded: a source asking for more than a minute is asked again after one. */
    static long retryAfter(RuntimeException failure) {
        long asked = failure instanceof IdUnavailableException ? ((IdUnavailableException) failure).retryAfterMillis() : RETRY_MILLIS;
        return Math.max(1, Math.min(asked, MAX_BACKOFF_MILLIS));
    }
}
