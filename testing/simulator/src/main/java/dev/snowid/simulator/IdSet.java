package dev.snowid.simulator;

/** Every ID issued in a run, without boxing: open addressing on a long array (IDs are never 0). */
final class IdSet {

    private long[] slots = new long[1 << 16];
    private int size;

    /** False when {@code id} was there already. */
    boolean add(long id) {
        if (size * 2 >= slots.length) {
            grow();
        }
        int mask = slots.length - 1;
        int i = (int) mix(id) & mask;
        while (slots[i] != 0) {
            if (slots[i] == id) {
                return false;
            }
            i = (i + 1) & mask;
        }
        slots[i] = id;
        size++;
        return true;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        size = 0;
        for (long id : old) {
            if (id != 0) {
                add(id);
            }
        }
    }

    private static long mix(long id) {
        long h = id * 0x9E3779B97F4A7C15L;
        return h ^ (h >>> 32);
    }
}
