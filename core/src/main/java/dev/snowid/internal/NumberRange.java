package dev.snowid.internal;

/**
 * A range of whole numbers a setting may take, e.g. 5000 to 3600000 ms: the one place its bounds
 * are checked and put into words, so that the check, the error message and the docs' tables say
 * the same. Typed values are read by {@link WholeNumber}'s rule.
 */
public final class NumberRange implements Setting.Parser<Long> {

    private final long min;
    private final long max;
    private final String unit;

    private NumberRange(long min, long max, String unit) {
        if (min > max) {
            throw new IllegalArgumentException("an empty range: " + min + " to " + max);
        }
        this.min = min;
        this.max = max;
        this.unit = unit;
    }

    /** @param unit what the number counts, e.g. {@code "ms"}; empty for none */
    public static NumberRange of(long min, long max, String unit) {
        return new NumberRange(min, max, unit);
    }

    public long min() {
        return min;
    }

    public long max() {
        return max;
    }

    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** {@code "a whole number from 5000 to 3600000 (ms)"}. */
    public String allowed() {
        return "a whole number from " + min + " to " + max + (unit.isEmpty() ? "" : " (" + unit + ")");
    }

    /**
     * {@code value} when it is in the range.
     *
     * @throws IllegalArgumentException {@code "leaseMillis 4999 is out of range: allowed 5000 to 3600000 (ms)"}
     */
    public long check(String name, long value) {
        if (!contains(value)) {
            throw new IllegalArgumentException(name + " " + value + " is out of range: allowed " + min + " to " + max
                    + (unit.isEmpty() ? "" : " (" + unit + ")"));
        }
        return value;
    }

    /**
     * The number {@code typed} spells, when it is in the range.
     *
     * @throws IllegalArgumentException {@code "'4999' is out of range; allowed a whole number from 5000 to 3600000 (ms)"}
     */
    @Override
    public Long parse(String typed) {
        try {
            return WholeNumber.parse(typed, min, max);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; allowed " + allowed(), e);
        }
    }

    @Override
    public String toString() {
        return min + " to " + max + (unit.isEmpty() ? "" : " " + unit);
    }
}
