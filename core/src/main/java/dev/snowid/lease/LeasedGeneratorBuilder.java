package dev.snowid.lease;

import dev.snowid.MonotonicClock;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;

/** Options of a {@link LeasedGenerator}; the defaults are the function's. */
public final class LeasedGeneratorBuilder {

    /** Longest wait for a fresh lease's floor that {@link #waitForFloorUpTo(long)} allows. */
    public static final long MAX_FLOOR_WAIT_MILLIS = 10_000;

    final LeaseSource source;
    final LeaseTerms terms;
    final WallClock clock;
    final SnowflakeCodec codec;
    boolean renewInBackground;
    long floorWaitMillis;
    LeaseEvents events = LeaseEvents.NONE;
    MonotonicClock monotonic = MonotonicClock.SYSTEM;
    Lease first;

    LeasedGeneratorBuilder(LeaseSource source, LeaseTerms terms, WallClock clock, SnowflakeCodec codec) {
        if (source == null || terms == null || clock == null || codec == null) {
            throw new IllegalArgumentException("a leased generator needs a lease source, terms, a clock and a codec");
        }
        this.source = source;
        this.terms = terms;
        this.clock = clock;
        this.codec = codec;
    }

    /**
     * Only {@link LeasedGenerator#maintainLease()}, called by the owner's own thread, talks to
     * the source; calls that issue IDs never do, and without a window in force they fail at once
     * (with the reason, and the source's latest failure as the cause).
     */
    public LeasedGeneratorBuilder renewInBackground() {
        this.renewInBackground = true;
        return this;
    }

    /**
     * When the clock is at most this far behind a fresh lease's floor, the call that took the
     * lease waits for the floor instead of refusing (0, the default: refuse beyond the
     * generator's few ms of tolerance).
     */
    public LeasedGeneratorBuilder waitForFloorUpTo(long millis) {
        if (millis < 0 || millis > MAX_FLOOR_WAIT_MILLIS) {
            throw new IllegalArgumentException("floor wait " + millis + " ms is out of range: allowed 0 to "
                    + MAX_FLOOR_WAIT_MILLIS + " ms");
        }
        this.floorWaitMillis = millis;
        return this;
    }

    /**
     * The clock a floor wait sleeps on and calls to the source are timed by; default
     * {@link MonotonicClock#SYSTEM}. For a simulator that owns time (testing/simulator).
     */
    public LeasedGeneratorBuilder monotonicClock(MonotonicClock monotonic) {
        if (monotonic == null) {
            throw new IllegalArgumentException("monotonicClock is null; MonotonicClock.SYSTEM is the real one");
        }
        this.monotonic = monotonic;
        return this;
    }

    /** Who is told of every grant, renewal, release and loss (audit lines); default nobody. */
    public LeasedGeneratorBuilder events(LeaseEvents events) {
        if (events == null) {
            throw new IllegalArgumentException("events is null; LeaseEvents.NONE tells nobody");
        }
        this.events = events;
        return this;
    }

    /**
     * Starts out holding {@code lease}, one the caller has just taken from the same source
     * (say, to fail at start-up when none can be had): the first ID issues under it instead
     * of acquiring another. {@link #build()} waits for its floor like an acquisition would,
     * and gives it back when it is unusable here.
     */
    public LeasedGeneratorBuilder startingWith(Lease lease) {
        if (lease == null) {
            throw new IllegalArgumentException("startingWith needs a lease");
        }
        this.first = lease;
        return this;
    }

    /**
     * @throws dev.snowid.ClockBehindException with {@link #startingWith(Lease)}: the clock is
     *         further behind the lease's floor than {@link #waitForFloorUpTo(long)}; the lease is released
     * @throws ClockSkewException with {@link #startingWith(Lease)}: the clock is too far from the
     *         source's, or already past the lease's end; the lease is released
     */
    public LeasedGenerator build() {
        LeasedGenerator generator = new LeasedGenerator(this);
        if (first != null) {
            generator.startWith(first);
        }
        return generator;
    }
}
