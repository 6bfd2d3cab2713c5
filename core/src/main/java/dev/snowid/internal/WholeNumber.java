package dev.snowid.internal;

import java.util.OptionalLong;

/**
 * The one rule for a whole number typed into a setting, a header, a path or a JSON body: ASCII
 * digits only. No sign ({@code +5} and {@code -5} are refused), no spaces, no separators, no
 * exponent; leading zeros are fine. Messages quote the value as typed.
 */
public final class WholeNumber {

    private WholeNumber() {
    }

    /**
     * The number {@code typed} spells in digits only; empty when it is not one (or null, or empty).
     * A number too large for a long reads as {@link Long#MAX_VALUE}: out of any range short of it.
     */
    public static OptionalLong parse(String typed) {
        if (typed == null || typed.isEmpty()) {
            return OptionalLong.empty();
        }
        long value = 0;
        boolean overflow = false;
        for (int i = 0; i < typed.length(); i++) {
            char c = typed.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
            int digit = c - '0';
            if (overflow || value > (Long.MAX_VALUE - digit) / 10) {
                overflow = true;
            } else {
                value = value * 10 + digit;
            }
        }
        return OptionalLong.of(overflow ? Long.MAX_VALUE : value);
    }

    /**
     * The number {@code typed} spells, from {@code min} to {@code max}; a number too large for a
     * long is out of every range.
     *
     * @throws IllegalArgumentException "'+5' is not a whole number" or "'70000' is out of range";
     *         the caller adds the setting's name and what is allowed
     */
    public static long parse(String typed, long min, long max) {
        OptionalLong number = parse(typed);
        if (!number.isPresent()) {
            throw new IllegalArgumentException("'" + typed + "' is not a whole number");
        }
        boolean tooLarge = number.getAsLong() == Long.MAX_VALUE && !fitsExactly(typed);
        if (tooLarge || number.getAsLong() < min || number.getAsLong() > max) {
            throw new IllegalArgumentException("'" + typed + "' is out of range");
        }
        return number.getAsLong();
    }

    /** Whether digits that read as {@link Long#MAX_VALUE} spell exactly that, not more. */
    private static boolean fitsExactly(String digits) {
        int start = 0;
        while (start < digits.length() - 1 && digits.charAt(start) == '0') {
            start++;
        }
        return digits.substring(start).equals(Long.toString(Long.MAX_VALUE));
    }
}
