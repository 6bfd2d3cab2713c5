package dev.snowid.protocol;

import dev.snowid.internal.WholeNumber;
import java.util.OptionalLong;

/**
 * The {@code Retry-After} header of a 503 (and of a refused secret): whole seconds on the wire,
 * milliseconds in the code. Rounded up, and at least 1 s: a client told "0" would ask again at
 * once, and one told less than it was meant to wait would ask too early.
 */
public final class RetryAfter {

    /** The header's name. */
    public static final String HEADER = "Retry-After";

    private RetryAfter() {
    }

    /** The header's value for a wait of {@code millis}: whole seconds, rounded up, at least 1. */
    public static long seconds(long millis) {
        return Math.max(1, (Math.max(0, millis) + 999) / 1000);
    }

    /**
     * The wait a header asks for, in ms; {@code absent} when there is none or it is not whole
     * seconds (an HTTP date, a sign, a fraction).
     */
    public static long millis(String header, long absent) {
        OptionalLong seconds = WholeNumber.parse(header == null ? null : header.trim());
        return seconds.isPresent() ? Math.max(1, Math.min(seconds.getAsLong(), Long.MAX_VALUE / 1000)) * 1000 : absent;
    }
}
