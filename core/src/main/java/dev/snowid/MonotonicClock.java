package dev.snowid;

/**
 * The monotonic clock, and waiting on it: for how long a call or a wait has lasted, never for
 * lease windows ({@link WallClock} says why). Production uses {@link #SYSTEM}; a deterministic
 * simulator passes its virtual time, so that nothing it runs waits on the real one.
 */
public interface MonotonicClock {

    /** {@code System.nanoTime()} and {@code Thread.sleep}. */
    MonotonicClock SYSTEM = new MonotonicClock() {
        @Override
        public long nanos() {
            return System.nanoTime();
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
            Thread.sleep(millis);
        }
    };

    /** Nanoseconds from an arbitrary origin; only differences mean anything. */
    long nanos();

    /** Waits {@code millis} ms of this clock. */
    void sleep(long millis) throws InterruptedException;
}
