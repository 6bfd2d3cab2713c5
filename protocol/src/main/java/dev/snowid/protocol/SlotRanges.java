package dev.snowid.protocol;

import dev.snowid.Slot;
import dev.snowid.internal.WholeNumber;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/** A set of slots written as index ranges, {@code "0-95"} or {@code "0-15,32-47"}: a part of a pool in a few characters. */
public final class SlotRanges {

    private SlotRanges() {
    }

    /** The slots (in table order) as ranges of consecutive indexes. */
    public static String write(List<Slot> slots) {
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < slots.size()) {
            int first = slots.get(i).index();
            int last = first;
            while (i + 1 < slots.size() && slots.get(i + 1).index() == last + 1) {
                last++;
                i++;
            }
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(first);
            if (last != first) {
                text.append('-').append(last);
            }
            i++;
        }
        return text.toString();
    }

    /**
     * @throws IllegalArgumentException for anything but comma-separated {@code a} or {@code a-b} with 0 <= a <= b < 1024
     */
    static List<Slot> read(String text) {
        List<Slot> slots = new ArrayList<>();
        if (text.isEmpty()) {
            return slots;
        }
        for (String range : text.split(",", -1)) {
            int dash = range.indexOf('-');
            int first = index(dash < 0 ? range : range.substring(0, dash), text);
            int last = dash < 0 ? first : index(range.substring(dash + 1), text);
            if (last < first) {
                throw new IllegalArgumentException("slot range '" + range + "' is reversed");
            }
            for (int index = first; index <= last; index++) {
                slots.add(Slot.ofIndex(index));
            }
        }
        return slots;
    }

    private static int index(String digits, String text) {
        OptionalLong number = WholeNumber.parse(digits);
        if (!number.isPresent() || digits.length() > 4) {
            throw new IllegalArgumentException("'" + text + "' is not a list of slot ranges such as 0-95,128-159");
        }
        int index = (int) number.getAsLong();
        if (index >= Slot.COUNT) {
            throw new IllegalArgumentException("slot " + index + " in '" + text + "' is beyond " + (Slot.COUNT - 1));
        }
        return index;
    }
}
