package dev.snowid.lease;

import dev.snowid.MonotonicClock;
import java.util.OptionalLong;

/**
 * A {@link LeasedGenerator}'s lease source, with the call in progress timed: a caller that does
 * not wait for a hanging call is told how long it has taken so far ({@link LeaseRefusals}).
 */
final class TimedLeaseSource implements LeaseSource {

    private final LeaseSource source;
    private final MonotonicClock monotonic;
    /** {@code monotonic.nanos()} when the call in progress began; 0 when none is. */
    private volatile long callStartedNanos;

    TimedLeaseSource(LeaseSource source) {
        this(source, MonotonicClock.SYSTEM);
    }

    TimedLeaseSource(LeaseSource source, MonotonicClock monotonic) {
        this.source = source;
        this.monotonic = monotonic;
    }

    @Override
    public Lease acquire() {
        callStarted();
        try {
            return source.acquire();
        } finally {
            callStartedNanos = 0;
        }
    }

    @Override
    public Lease renew(Lease lease) {
        callStarted();
        try {
            return source.renew(lease);
        } finally {
            callStartedNanos = 0;
        }
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        callStarted();
        try {
            source.release(lease, lastIssuedMillis);
        } finally {
            callStartedNanos = 0;
        }
    }

    @Override
    public OptionalLong clockSkewMillis() {
        return source.clockSkewMillis();
    }

    /** How long the call in progress has taken so far, or -1 when none is. */
    long callInProgressMillis() {
        long started = callStartedNanos;
        return started == 0 ? -1 : (monotonic.nanos() - started) / 1_000_000;
    }

    private void callStarted() {
        callStartedNanos = monotonic.nanos() | 1; // never 0, which means "none"
    }
}
