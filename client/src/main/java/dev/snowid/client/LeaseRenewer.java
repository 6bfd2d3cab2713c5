package dev.snowid.client;

import dev.snowid.internal.WarningCode;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.protocol.ErrorCode;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The daemon thread (by default: {@link RenewalScheduler}) that alone talks to the lease API for a {@link LeasedGenerator} renewing in
 * the background: it looks every tick whether a renewal is due (less than half the lease left),
 * renews the lease, or leases anew once it was lost or given back, honouring the API's
 * Retry-After after a failure. The threads asking for IDs never wait on it: they issue while a
 * window is in force and fail at once otherwise ({@link #wake()} then brings the next look forward).
 */
final class LeaseRenewer implements Runnable {

    static final String THREAD_NAME = "snowid-lease-renewer";

    private final LeasedGenerator generator;
    private final long tickNanos;
    private final ClientLog log;
    private final RenewalScheduler ticks;
    private final AtomicLong failures = new AtomicLong();
    /** Held while the thread talks to the lease API: {@link #pause()} waits for it. */
    private final Object turn = new Object();
    /** Written holding {@link #turn}; read without it, so that no caller of {@link #paused()} waits on the API. */
    private volatile boolean paused;
    private volatile boolean stopped;
    /** What went wrong at the last looks, logged once until the lease is confirmed again; null: nothing. Only {@link #look()} uses it. */
    private String failing;

    LeaseRenewer(LeasedGenerator generator, long leaseMillis, ClientLog log) {
        this(generator, leaseMillis, log, RenewalScheduler.thread());
    }

    LeaseRenewer(LeasedGenerator generator, long leaseMillis, ClientLog log, RenewalScheduler ticks) {
        this.generator = generator;
        this.tickNanos = tickMillis(leaseMillis) * 1_000_000;
        this.log = log;
        this.ticks = ticks;
    }

    /** How often to look whether a renewal is due: a twentieth of the lease, 0.1 to 1 s. */
    static long tickMillis(long leaseMillis) {
        return Math.max(100, Math.min(1_000, leaseMillis / 20));
    }

    /**
     * The lease length renewals are planned with (renewal once less than half is left): the
     * configured one, but never longer than the API granted, or every moment would be "due";
     * without a configured one, what the API granted. Within {@link LeaseTerms}' bounds.
     */
    static long planningLeaseMillis(long configuredMillis, long grantedMillis) {
        long planned = configuredMillis > 0 ? Math.min(configuredMillis, grantedMillis) : grantedMillis;
        return Math.max(LeaseTerms.MIN_LEASE_MILLIS, Math.min(LeaseTerms.MAX_LEASE_MILLIS, planned));
    }

    void start() {
        ticks.start(this, tickNanos); // not this::look: the agent's start-up path bootstraps no lambda
    }

    /** One {@link #look()}, as its scheduler calls it. */
    @Override
    public void run() {
        look();
    }

    void stop() {
        stopped = true;
        ticks.stop();
    }

    /**
     * No more calls to the lease API until {@link #resume()}; returns once a call in progress is
     * done, so that nothing is leased after it returns.
     */
    void pause() {
        synchronized (turn) {
            paused = true;
        }
    }

    /** Calls again, at once. */
    void resume() {
        synchronized (turn) {
            paused = false;
        }
        wake();
    }

    boolean paused() {
        return paused;
    }

    /** A caller found no window in force: look now rather than at the next tick (the generator still honours Retry-After). */
    void wake() {
        ticks.wake();
    }

    /** Attempts to renew or lease that failed without the lease being lost. */
    long failures() {
        return failures.get();
    }

    /** One look: renews when due, or leases anew; a failure is logged once until the lease is confirmed again. */
    void look() {
        if (stopped) {
            return;
        }
        try {
            synchronized (turn) {
                if (!paused && generator.maintainLease() && failing != null) {
                    log.info("the lease API confirmed the lease again after: " + failing);
                    failing = null;
                }
            }
        } catch (LeaseLostException e) {
            log.error(ErrorCode.LEASE_LOST.tag("the lease was lost; no ID is issued until a new one is taken: " + e.getMessage()));
            failing = "the loss of the lease";
        } catch (ClockSkewException e) {
            failures.incrementAndGet();
            if (!e.getMessage().equals(failing)) {
                log.error(ErrorCode.CLOCK_SKEW.tag("refusing to lease: " + e.getMessage()));
                failing = e.getMessage();
            }
        } catch (RuntimeException e) {
            failures.incrementAndGet();
            if (failing == null) {
                log.warn(WarningCode.LEASE_API_FAILED.tag("the lease API failed; retrying, and no ID is issued once the lease window has ended: "
                        + e.getMessage()));
                failing = e.getMessage();
            }
        }
    }
}
