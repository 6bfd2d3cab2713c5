package dev.snowid.lease;

import dev.snowid.ClockBehindException;
import dev.snowid.LeaseWindow;
import dev.snowid.MonotonicClock;
import dev.snowid.WallClock;

/**
 * A fresh lease's floor is the previous holder's expiry, set by another clock (another function
 * environment's, or the previous agent's). A clock up to {@code maxMillis} behind it waits; further
 * behind, it refuses with the clock's message. With 0, it never waits (the generator then refuses
 * beyond its few ms of tolerance).
 */
final class FloorWait {

    private final WallClock clock;
    private final MonotonicClock monotonic;
    private final long maxMillis;

    FloorWait(WallClock clock, MonotonicClock monotonic, long maxMillis) {
        this.clock = clock;
        this.monotonic = monotonic;
        this.maxMillis = maxMillis;
    }

    /** @throws ClockBehindException when this clock is further behind the floor than allowed */
    void await(LeaseWindow window) {
        long behind = window.floor() - clock.millis();
        if (behind <= 0 || maxMillis == 0) {
            return;
        }
        if (behind > maxMillis) {
            throw new ClockBehindException("the new lease's floor (the previous holder's expiry)", behind, maxMillis);
        }
        // A guard against a clock that stopped: never wait much longer than the bound.
        long deadline = monotonic.nanos() + (maxMillis + 1_000) * 1_000_000;
        while ((behind = window.floor() - clock.millis()) > 0 && monotonic.nanos() - deadline < 0) {
            try {
                monotonic.sleep(Math.min(behind, 50));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // the generator refuses until the clock has reached the floor
            }
        }
    }
}
