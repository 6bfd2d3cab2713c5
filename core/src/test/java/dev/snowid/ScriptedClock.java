package dev.snowid;

import dev.snowid.WallClock;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A wall clock that answers a fixed script of readings, one per read, then keeps the last.
 * It makes waits deterministic: a test knows exactly which reading a generator acted on.
 */
public final class ScriptedClock implements WallClock {

    private final long[] readings;
    private final AtomicInteger reads = new AtomicInteger();

    public ScriptedClock(long... readings) {
        if (readings.length == 0) {
            throw new IllegalArgumentException("a script needs at least one reading");
        }
        this.readings = readings.clone();
    }

    @Override
    public long millis() {
        int read = reads.getAndIncrement();
        return readings[Math.min(read, readings.length - 1)];
    }

    /** How often the clock was read so far. */
    public int reads() {
        return reads.get();
    }
}
