package dev.snowid.internal;

import java.util.OptionalLong;

/**
 * The one rule for a whole number typed into a setting or a header: ASCII digits only. No sign
 * ({@code +5} and {@code -5} are refused), no spaces, no separators, no exponent. Messages quote
 * the value as typed.
 */
public final class WholeNumber {

    /** More digits than this may not fit a long: read as {@link Long#MAX_VALUE}, out of any range given. */
    private static final int MAX_EXACT_DIGITS = 18;

    private WholeNumber() {
    }

    /** The number {@code typed} spells in digits only; empty when it is not one (or null, or empty). */
    public static OptionalLong parse(String typed) {
        if (typed == null || typed.isEmpty()) {
            return OptionalLong.empty();
        }
        for (int i = 0; i < typed.length(); i++) {
            char c = typed.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(typed.length() > MAX_EXACT_DIGITS ? Long.MAX_VALUE : Long.parseLong(typed));
    }

    /**
     * The number {@code typed} spells, from {@code min} to {@code max}.
     *
     * @throws IllegalArgumentException "'+5' is not a whole number" or "'70000' is out of range";
     *         the caller adds the setting's name and what is allowed
     */
    public static long parse(String typed, long min, long max) {
        OptionalLong number = parse(typed);
        if (!number.isPresent()) {
            throw new IllegalArgumentException("'" + typed + "' is not a whole number");
        }
        if (number.getAsLong() < min || number.getAsLong() > max) {
            throw new IllegalArgumentException("'" + typed + "' is out of range");
        }
        return number.getAsLong();
    }
}
