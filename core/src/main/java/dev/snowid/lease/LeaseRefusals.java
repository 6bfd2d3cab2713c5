package dev.snowid.lease;

import dev.snowid.LeaseExpiredException;

/**
 * What a {@link LeasedGenerator} tells a caller it refuses, in one place: each message says what is
 * held, what went wrong and when IDs come again.
 */
final class LeaseRefusals {

    private LeaseRefusals() {
    }

    static LeaseExpiredException shutDown() {
        return new LeaseExpiredException("the generator was shut down and its lease released; it issues nothing more");
    }

    /**
     * Renewing in the background, a call without a window in force: why, and what is being done
     * about it ({@code callMillis}: how long a call to the source has been in progress, -1 for none).
     */
    static LeaseExpiredException noWindow(Lease lease, boolean givenUp, long expiredAt, long now, LeaseSchedule schedule,
            long callMillis) {
        String what = lease == null ? "no lease is held" : givenUp
                ? "the lease on slot " + lease.slot() + " was given up"
                : "the lease on slot " + lease.slot() + " expired at " + expiredAt + " (unix ms), " + (now - expiredAt) + " ms ago";
        RuntimeException failure = schedule.failure();
        String state = "";
        if (failure != null) {
            state = "the lease source failed " + Math.max(0, schedule.sinceFailureMillis(now)) + " ms ago (" + failure.getMessage() + ")";
        }
        if (callMillis >= 0) {
            state += (state.isEmpty() ? "" : "; ") + "a call to the lease source has been in progress for " + callMillis + " ms";
        } else if (failure == null) {
            state = "the renewer is about to renew or lease";
        }
        return new LeaseExpiredException(what + " and " + state + "; no ID is issued until a renewal or a new lease is"
                + " confirmed (this call does not wait for it)", schedule.noWindowRetryAfterMillis(now), failure);
    }

    /** Inline: the last lease was given back for this clock, and its Retry-After has not passed. */
    static LeaseExpiredException givenBackForClock(ClockSkewException failure, long now, LeaseSchedule schedule) {
        long left = schedule.backOffLeftMillis(now);
        return new LeaseExpiredException("no lease is held: the last one was given back " + schedule.sinceFailureMillis(now)
                + " ms ago (" + failure.getMessage() + "); no lease is taken for another " + left + " ms", left, failure);
    }

    /** Renewed less than a quarter lease ago and already run out: this clock runs ahead of the source's by most of a lease. */
    static LeaseExpiredException renewedTooRecently(Lease lease, long now, LeaseSchedule schedule, LeaseTerms terms) {
        return new LeaseExpiredException("the lease on slot " + lease.slot() + " was renewed " + schedule.sinceConfirmedMillis(now)
                + " ms ago and its window has already ended by this clock; renewals are limited to one per "
                + terms.minRenewalIntervalMillis() + " ms (a quarter lease)", schedule.renewalIntervalLeftMillis(now), null);
    }

    /** A window the source has just confirmed that this clock has already passed. */
    static ClockSkewException pastWindowEnd(Lease lease, long now) {
        long expiresAt = lease.window().expiresAt();
        return new ClockSkewException("this clock (" + now + ", unix ms) is already past the end of the " + lease
                + " the lease source has just confirmed, by " + (now - expiresAt) + " ms: it runs ahead of the source's by at least"
                + " that plus the lease; the lease is given back and no slot is leased until the clock is synchronised (NTP)",
                now - expiresAt);
    }

    /** A confirmed expiry earlier than the window in force: a source that breaks the protocol. */
    static String shortenedExpiry(long newExpiresAt, Object windowInForce) {
        return "the lease source confirmed an expiry (" + newExpiresAt + ") earlier than the window in force "
                + windowInForce + "; a store never shortens a lease, so this one is given up";
    }
}
