package dev.snowid.simulator;

import dev.snowid.MonotonicClock;
import dev.snowid.WallClock;

/**
 * One simulated machine's clocks on the simulation's virtual time: the wall clock with this
 * machine's offset, drift and jumps; the monotonic clock, untouched by them. Reading the wall
 * clock takes a microsecond of virtual time, so that code spinning on it (a generator waiting out
 * a step back) sees time pass. Sleeping lets the rest of the world run meanwhile.
 */
final class SimClock implements WallClock, MonotonicClock {

    private final Simulation sim;
    /** The process whose clock this is (set by it); null for none. */
    Proc owner;
    private long offsetMillis;
    /** Parts per million faster (positive) or slower than true time, since {@link #driftSinceNanos}. */
    private long driftPpm;
    private long driftSinceNanos;

    SimClock(Simulation sim, long offsetMillis) {
        this.sim = sim;
        this.offsetMillis = offsetMillis;
    }

    @Override
    public long millis() {
        sim.clockRead();
        Proc process = owner;
        if (process != null && process.readsUntilPause > 0 && sim.running() == process && --process.readsUntilPause == 0) {
            // A pause (GC, SIGSTOP) between two steps of whatever this process is doing: say, after it found its window
            // in force and before it stamps the ID.
            process.pausedUntilNanos = sim.now() + process.pauseNanos;
            sim.advance(process.pauseNanos);
        }
        return sim.trueMillis() + offsetMillis();
    }

    long offsetMillis() {
        return offsetMillis + (sim.now() - driftSinceNanos) / 1_000_000 * driftPpm / 1_000_000;
    }

    void setOffset(long millis) {
        offsetMillis = millis - (offsetMillis() - offsetMillis);
    }

    void jump(long millis) {
        offsetMillis += millis;
    }

    void drift(long ppm) {
        offsetMillis = offsetMillis();
        driftSinceNanos = sim.now();
        driftPpm = ppm;
    }

    /** NTP fixed it. */
    void synchronise() {
        offsetMillis = 0;
        driftPpm = 0;
        driftSinceNanos = sim.now();
    }

    @Override
    public long nanos() {
        return sim.now();
    }

    @Override
    public void sleep(long millis) {
        sim.advance(millis * 1_000_000);
    }
}
