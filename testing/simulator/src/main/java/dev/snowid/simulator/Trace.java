package dev.snowid.simulator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The event log of one run: every step and what came of it, one line each. Always hashed
 * (FNV-1a, 64 bits), so that two runs of a seed can be compared; kept in full only when asked
 * (to print a failing seed's trace).
 */
final class Trace {

    private final boolean keep;
    private final List<String> lines = new ArrayList<>();
    private long hash = 0xcbf29ce484222325L;
    private long count;

    Trace(boolean keep) {
        this.keep = keep;
    }

    void line(String text) {
        count++;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x100000001b3L;
        }
        hash ^= '\n';
        hash *= 0x100000001b3L;
        if (keep) {
            lines.add(text);
        }
    }

    /** An event, hashed from its parts without building its line unless the trace is kept (the hot path). */
    void event(long millis, String who, String what) {
        if (keep) {
            line(millis + " " + who + " " + what);
        } else {
            count++;
            mix(millis);
            mix(who.hashCode());
            mix(what.hashCode());
        }
    }

    /** IDs issued, hashed as numbers unless the trace is kept. */
    void issued(String who, long firstId, int count, String slot) {
        if (keep) {
            line("  " + who + " issued " + count + " from " + slot + ", first " + firstId);
        } else {
            this.count++;
            mix(who.hashCode());
            mix(firstId);
            mix(count);
        }
    }

    private void mix(long value) {
        for (int i = 0; i < 8; i++) {
            hash ^= (value >>> (8 * i)) & 0xff;
            hash *= 0x100000001b3L;
        }
    }

    long hash() {
        return hash;
    }

    long count() {
        return count;
    }

    List<String> lines() {
        return lines;
    }
}
