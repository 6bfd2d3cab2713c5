package dev.snowid.lease;

import dev.snowid.Slot;
import dev.snowid.internal.WholeNumber;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalLong;

/**
 * The slots one deployment may lease: a range of datacenters times a range of machines,
 * e.g. datacenters {@code 0-3} and machines {@code 0-31} (128 slots). Each region gets its
 * own datacenters, so two regions' tables never hand out the same slot.
 */
public final class SlotPool {

    /** What a datacenter or machine range may be, in words: the one rule, for every setting that takes one. */
    public static final String RANGE_ALLOWED = "a number from 0 to 31, or a range a-b with 0 <= a <= b <= 31 (e.g. 0-3)";
    private static final String ALLOWED = "allowed " + RANGE_ALLOWED;

    private final List<Slot> slots;
    private final boolean[] members = new boolean[Slot.COUNT];
    private final String description;

    private SlotPool(int firstDatacenter, int lastDatacenter, int firstMachine, int lastMachine) {
        List<Slot> all = new ArrayList<>();
        for (int datacenter = firstDatacenter; datacenter <= lastDatacenter; datacenter++) {
            for (int machine = firstMachine; machine <= lastMachine; machine++) {
                all.add(Slot.of(datacenter, machine));
            }
        }
        this.slots = Collections.unmodifiableList(all);
        this.description = "datacenters " + span(firstDatacenter, lastDatacenter) + " x machines " + span(firstMachine, lastMachine);
        for (Slot slot : slots) {
            members[slot.index()] = true;
        }
    }

    /** A part of a pool: some of its slots, in table order. */
    private SlotPool(List<Slot> slots, String description) {
        this.slots = Collections.unmodifiableList(new ArrayList<>(slots));
        this.description = description;
        for (Slot slot : slots) {
            members[slot.index()] = true;
        }
    }

    /**
     * Reads the pool from configuration: each range is {@code a-b} or a single number, within 0-31.
     *
     * @throws IllegalArgumentException naming the range, its value and what is allowed
     */
    public static SlotPool parse(String datacenters, String machines) {
        int[] datacenterRange = range("datacenter range", datacenters);
        int[] machineRange = range("machine range", machines);
        return new SlotPool(datacenterRange[0], datacenterRange[1], machineRange[0], machineRange[1]);
    }

    public static SlotPool of(int firstDatacenter, int lastDatacenter, int firstMachine, int lastMachine) {
        check("datacenter range ", firstDatacenter, lastDatacenter, firstDatacenter + "-" + lastDatacenter);
        check("machine range ", firstMachine, lastMachine, firstMachine + "-" + lastMachine);
        return new SlotPool(firstDatacenter, lastDatacenter, firstMachine, lastMachine);
    }

    /**
     * Checks one range as a setting gives it ({@link #RANGE_ALLOWED}), so that a message can name
     * the setting at fault.
     *
     * @throws IllegalArgumentException {@code "'3-1' is not valid; allowed a number from 0 to 31, …"}
     */
    public static void checkRange(String text) {
        range("", text);
    }

    private static int[] range(String name, String text) {
        String prefix = name.isEmpty() ? "" : name + " ";
        if (text == null || text.trim().isEmpty()) {
            throw new IllegalArgumentException(prefix + "is empty; " + ALLOWED);
        }
        String value = text.trim();
        int dash = value.indexOf('-');
        int first = number(prefix, value, dash < 0 ? value : value.substring(0, dash));
        int last = dash < 0 ? first : number(prefix, value, value.substring(dash + 1));
        check(prefix, first, last, value);
        return new int[] {first, last};
    }

    /** One or two digits (by {@link WholeNumber}'s rule): anything longer is out of range anyway. */
    private static int number(String prefix, String value, String digits) {
        OptionalLong number = digits.length() > 2 ? OptionalLong.empty() : WholeNumber.parse(digits);
        if (!number.isPresent()) {
            throw new IllegalArgumentException(prefix + "'" + value + "' is not valid; " + ALLOWED);
        }
        return (int) number.getAsLong();
    }

    private static void check(String prefix, int first, int last, String value) {
        if (first < 0 || last > 31 || first > last) {
            throw new IllegalArgumentException(prefix + "'" + value + "' is not valid; " + ALLOWED);
        }
    }

    /** Every slot of the pool, in table order (datacenter, then machine). */
    public List<Slot> slots() {
        return slots;
    }

    public int size() {
        return slots.size();
    }

    public boolean contains(Slot slot) {
        return slot != null && members[slot.index()];
    }

    /**
     * The first {@code count} slots of this pool in table order: with {@link #last(int)}, how a
     * deployment splits its pool into parts that never lease from each other.
     *
     * @throws IllegalArgumentException unless {@code 1 <= count <= size}
     */
    public SlotPool first(int count) {
        checkPart(count);
        return new SlotPool(slots.subList(0, count), "slots " + slots.get(0) + " to " + slots.get(count - 1) + " of " + description);
    }

    /**
     * The last {@code count} slots of this pool in table order.
     *
     * @throws IllegalArgumentException unless {@code 1 <= count <= size}
     */
    public SlotPool last(int count) {
        checkPart(count);
        int from = slots.size() - count;
        return new SlotPool(slots.subList(from, slots.size()),
                "slots " + slots.get(from) + " to " + slots.get(slots.size() - 1) + " of " + description);
    }

    private void checkPart(int count) {
        if (count < 1 || count > slots.size()) {
            throw new IllegalArgumentException("a part of " + this + " holds 1 to " + slots.size() + " slots, not " + count);
        }
    }

    /** E.g. {@code "datacenters 0-3 x machines 0-31 (128 slots)"}, for error messages. */
    @Override
    public String toString() {
        return description + " (" + size() + (size() == 1 ? " slot)" : " slots)");
    }

    private static String span(int first, int last) {
        return first == last ? Integer.toString(first) : first + "-" + last;
    }
}
