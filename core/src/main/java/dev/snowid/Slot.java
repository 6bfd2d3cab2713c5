package dev.snowid;

import dev.snowid.internal.WholeNumber;
import java.util.OptionalLong;

/**
 * A node slot: the (datacenter, machine) pair that makes a generator's IDs its own.
 * Two live generators must never hold the same slot; leases make sure of that.
 */
public final class Slot implements Comparable<Slot> {

    public static final int MAX_DATACENTER = 31;
    public static final int MAX_MACHINE = 31;
    /** Number of distinct slots the format has room for. */
    public static final int COUNT = (MAX_DATACENTER + 1) * (MAX_MACHINE + 1);

    private final int datacenter;
    private final int machine;

    private Slot(int datacenter, int machine) {
        this.datacenter = datacenter;
        this.machine = machine;
    }

    public static Slot of(int datacenter, int machine) {
        if (datacenter < 0 || datacenter > MAX_DATACENTER) {
            throw new IllegalArgumentException("datacenter " + datacenter + " is out of range: allowed 0 to " + MAX_DATACENTER);
        }
        if (machine < 0 || machine > MAX_MACHINE) {
            throw new IllegalArgumentException("machine " + machine + " is out of range: allowed 0 to " + MAX_MACHINE);
        }
        return new Slot(datacenter, machine);
    }

    /** The slot whose {@link #index()} is {@code index}: datacenter * 32 + machine. */
    public static Slot ofIndex(int index) {
        if (index < 0 || index >= COUNT) {
            throw new IllegalArgumentException("slot " + index + " is out of range: allowed 0 to " + (COUNT - 1));
        }
        return new Slot(index / (MAX_MACHINE + 1), index % (MAX_MACHINE + 1));
    }

    /** Parses {@code "datacenter:machine"}, e.g. {@code "7:13"}. */
    public static Slot parse(String text) {
        String expected = "expected <datacenter>:<machine>, each a whole number from 0 to 31, e.g. 7:13";
        if (text == null) {
            throw new IllegalArgumentException("no node given: " + expected);
        }
        int colon = text.indexOf(':');
        if (colon < 0 || colon != text.lastIndexOf(':')) {
            throw new IllegalArgumentException("'" + text + "' is not a node: " + expected);
        }
        return of(part(text, text.substring(0, colon), "datacenter", expected),
                part(text, text.substring(colon + 1), "machine", expected));
    }

    private static int part(String text, String digits, String field, String expected) {
        // At most three digits, by the whole-number rule: anything longer is out of range anyway.
        OptionalLong number = digits.length() > 3 ? OptionalLong.empty() : WholeNumber.parse(digits);
        if (!number.isPresent()) {
            throw new IllegalArgumentException("'" + text + "' is not a node: " + field + " '" + digits + "' is not a number; " + expected);
        }
        return (int) number.getAsLong();
    }

    public int datacenter() {
        return datacenter;
    }

    public int machine() {
        return machine;
    }

    /** The slot's number in the lease table: datacenter * 32 + machine. */
    public int index() {
        return datacenter * (MAX_MACHINE + 1) + machine;
    }

    @Override
    public int compareTo(Slot other) {
        return Integer.compare(index(), other.index());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Slot && ((Slot) other).index() == index();
    }

    @Override
    public int hashCode() {
        return index();
    }

    /** {@code "datacenter:machine"}, the form {@link #parse} reads. */
    @Override
    public String toString() {
        return datacenter + ":" + machine;
    }
}
