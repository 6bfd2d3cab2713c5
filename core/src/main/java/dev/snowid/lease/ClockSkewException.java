package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/**
 * The local clock differs from the lease store's by more than allowed, so no slot is leased.
 * A clock far ahead would see live leases as expired and take them over; one far behind would
 * wait at every new lease's floor. HTTP 503.
 */
public final class ClockSkewException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    /** Clocks are fixed by NTP, not by retrying at once. */
    private static final long RETRY_AFTER_MILLIS = 10_000;

    private final long skewMillis;

    /** Built by {@link LeaseTerms#checkSkew}, or for a skew known only as a lower bound. */
    public ClockSkewException(String message, long skewMillis) {
        super(message, RETRY_AFTER_MILLIS);
        this.skewMillis = skewMillis;
    }

    /** Local clock minus the store's, in ms, as measured. */
    public long skewMillis() {
        return skewMillis;
    }
}
