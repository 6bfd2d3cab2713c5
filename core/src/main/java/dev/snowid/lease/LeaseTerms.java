package dev.snowid.lease;

import dev.snowid.LeaseWindow;
import dev.snowid.internal.NumberRange;
import java.util.OptionalLong;

/**
 * How long a lease lasts and how far the local clock may differ from the store's: the one
 * home of these bounds, for the function's settings, the agent's and the lease client's. A
 * holder renews once less than half of the lease is left, so one failed renewal still leaves
 * time for another before the window ends.
 *
 * <p>The lease must last at least {@value #MIN_LEASE_TO_SKEW_RATIO} times the tolerated skew
 * ({@link #toleratedSkewMillis()}). Two clocks that are each within the tolerance of the store's
 * can differ from each other by twice the tolerance, so a lease may look run out to another
 * holder that much early; a holder renews with half its lease left, so half the lease must cover
 * that disagreement: then a renewal on schedule lands before any tolerated clock could take the
 * slot over, and a clock ahead by the whole tolerance still finds a renewed window with more than
 * half left (no renewal at every tick).
 */
public final class LeaseTerms {

    public static final long MIN_LEASE_MILLIS = 5_000;
    public static final long MAX_LEASE_MILLIS = 3_600_000;
    public static final long DEFAULT_LEASE_MILLIS = 60_000;
    public static final long MAX_CLOCK_SKEW_MILLIS = 60_000;
    public static final long DEFAULT_MAX_CLOCK_SKEW_MILLIS = 2_000;
    /** The shortest lease, in multiples of the tolerated skew; see the class comment for why. */
    public static final int MIN_LEASE_TO_SKEW_RATIO = 4;
    /**
     * The store's clock is read from the HTTP {@code Date} header, which has whole seconds: a
     * measured difference can be up to 1 s off, so the bound is widened by that much.
     */
    public static final long DATE_HEADER_RESOLUTION_MILLIS = 1_000;

    /**
     * The lease duration's bounds as every front end checks, parses and describes them (the
     * function's and the agent's settings, the client builder, the starter): this one check.
     * {@link NumberRange} is not API.
     */
    public static final NumberRange LEASE_MILLIS_RANGE = NumberRange.of(MIN_LEASE_MILLIS, MAX_LEASE_MILLIS, "ms");
    /** The tolerated skew's bounds, as {@link #LEASE_MILLIS_RANGE}. */
    public static final NumberRange MAX_CLOCK_SKEW_RANGE = NumberRange.of(0, MAX_CLOCK_SKEW_MILLIS, "ms");

    /** 60 s leases, at most 2 s between the local clock and the store's. */
    public static final LeaseTerms DEFAULT = new LeaseTerms(DEFAULT_LEASE_MILLIS, DEFAULT_MAX_CLOCK_SKEW_MILLIS);

    private final long leaseMillis;
    private final long maxClockSkewMillis;

    private LeaseTerms(long leaseMillis, long maxClockSkewMillis) {
        this.leaseMillis = leaseMillis;
        this.maxClockSkewMillis = maxClockSkewMillis;
    }

    /**
     * @param leaseMillis lease duration, {@value #MIN_LEASE_MILLIS} to {@value #MAX_LEASE_MILLIS} ms, and at least
     *                    {@value #MIN_LEASE_TO_SKEW_RATIO} times the tolerated skew
     * @param maxClockSkewMillis largest difference between the local clock and the store's, 0 to {@value #MAX_CLOCK_SKEW_MILLIS} ms
     * @throws IllegalArgumentException naming the setting, its value and what is allowed
     */
    public static LeaseTerms of(long leaseMillis, long maxClockSkewMillis) {
        LEASE_MILLIS_RANGE.check("leaseMillis", leaseMillis);
        MAX_CLOCK_SKEW_RANGE.check("maxClockSkewMillis", maxClockSkewMillis);
        long tolerated = maxClockSkewMillis + DATE_HEADER_RESOLUTION_MILLIS;
        if (leaseMillis < MIN_LEASE_TO_SKEW_RATIO * tolerated) {
            throw new IllegalArgumentException("leaseMillis " + leaseMillis + " is too short for maxClockSkewMillis "
                    + maxClockSkewMillis + ": a lease must last at least " + MIN_LEASE_TO_SKEW_RATIO + " x the tolerated skew ("
                    + maxClockSkewMillis + " + " + DATE_HEADER_RESOLUTION_MILLIS + " ms for the Date header's whole seconds = "
                    + tolerated + " ms), i.e. at least " + MIN_LEASE_TO_SKEW_RATIO * tolerated + " ms, so that a renewal at half the"
                    + " lease lands before a clock within the tolerance could take the slot over; lengthen the lease to at least "
                    + MIN_LEASE_TO_SKEW_RATIO * tolerated + " ms or lower maxClockSkewMillis to at most "
                    + largestMaxClockSkewFor(leaseMillis) + " ms");
        }
        return new LeaseTerms(leaseMillis, maxClockSkewMillis);
    }

    /** The largest {@code maxClockSkewMillis} a lease of {@code leaseMillis} allows (see the class comment), never below 0. */
    public static long largestMaxClockSkewFor(long leaseMillis) {
        return Math.max(0, leaseMillis / MIN_LEASE_TO_SKEW_RATIO - DATE_HEADER_RESOLUTION_MILLIS);
    }

    public long leaseMillis() {
        return leaseMillis;
    }

    public long maxClockSkewMillis() {
        return maxClockSkewMillis;
    }

    /** Whether less than half of the lease is left at {@code now} (or none at all). */
    public boolean needsRenewal(LeaseWindow window, long now) {
        return window.expiresAt() - now < leaseMillis / 2;
    }

    /**
     * The least time between two confirmed renewals: a quarter of the lease, so at most twice the
     * normal rate (one per half lease). Without it a clock ahead by more than half the lease
     * would find every renewed window "due" again at once and renew at every tick.
     */
    public long minRenewalIntervalMillis() {
        return leaseMillis / 4;
    }

    /** The largest measured skew that is still accepted: the bound plus the Date header's resolution. */
    public long toleratedSkewMillis() {
        return maxClockSkewMillis + DATE_HEADER_RESOLUTION_MILLIS;
    }

    /**
     * Whether a skew measured against the store's {@code Date} header (local clock minus the
     * store's, either sign) is within {@link #toleratedSkewMillis()}; beyond it, no slot is leased.
     */
    public boolean toleratesSkew(long measuredSkewMillis) {
        return measuredSkewMillis >= -toleratedSkewMillis() && measuredSkewMillis <= toleratedSkewMillis();
    }

    /**
     * The one skew check: a skew measured against {@code against}'s clock (say "the lease store's")
     * beyond {@link #toleratedSkewMillis()} is refused, saying by how much and {@code consequence}.
     *
     * @throws ClockSkewException when {@code measured} is present and not tolerated
     */
    public void checkSkew(OptionalLong measured, String against, String consequence) {
        if (!measured.isPresent() || toleratesSkew(measured.getAsLong())) {
            return;
        }
        long skew = measured.getAsLong();
        throw new ClockSkewException("this clock is " + Math.abs(skew) + " ms " + (skew > 0 ? "ahead of " : "behind ") + against
                + ", allowed " + toleratedSkewMillis() + " ms (maxClockSkewMillis " + maxClockSkewMillis + " plus "
                + DATE_HEADER_RESOLUTION_MILLIS + " ms for the Date header's whole seconds); " + consequence, skew);
    }

    @Override
    public String toString() {
        return "lease " + leaseMillis + " ms, max clock skew " + maxClockSkewMillis + " ms";
    }
}
