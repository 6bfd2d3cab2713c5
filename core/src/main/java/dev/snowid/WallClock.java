package dev.snowid;

/**
 * The wall clock, in unix milliseconds. IDs carry wall-clock time, and lease windows are
 * checked against it, never against {@code System.nanoTime()}: the monotonic clock stops while a
 * Lambda environment is frozen, so it would keep a thawed holder inside an expired lease.
 */
public interface WallClock {

    /** {@code System.currentTimeMillis()}. */
    WallClock SYSTEM = new WallClock() {
        @Override
        public long millis() {
            return System.currentTimeMillis();
        }
    };

    long millis();
}
