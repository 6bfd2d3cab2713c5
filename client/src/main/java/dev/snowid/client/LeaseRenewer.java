package dev.snowid.client;

import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeasedGenerator;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The daemon thread that alone talks to the lease API for a {@link LeasedGenerator} renewing in
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
    private final Thread thread;
    private final AtomicLong failures = new AtomicLong();
    /** Held while the thread talks to the lease API: {@link #pause()} waits for it. */
    private final Object turn = new Object();
    /** Written holding {@link #turn}; read without it, so that no caller of {@link #paused()} waits on the API. */
    private volatile boolean paused;
    private volatile boolean stopped;

    LeaseRenewer(LeasedGenerator generator, long leaseMillis, ClientLog log) {
        this.generator = generator;
        this.tickNanos = tickMillis(leaseMillis) * 1_000_000;
        this.log = log;
        this.thread = new Thread(this, THREAD_NAME);
        this.thread.setDaemon(true);
    }

    /** How often to look whether a renewal is due: a twentieth of the lease, 0.1 to 1 s. */
    static long tickMillis(long leaseMillis) {
        return Math.max(100, Math.min(1_000, leaseMillis / 20));
    }

    void start() {
        thread.start();
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
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
        LockSupport.unpark(thread);
    }

    /** Attempts to renew or lease that failed without the lease being lost. */
    long failures() {
        return failures.get();
    }

    @Override
    public void run() {
        String failing = null;
        while (!stopped) {
            LockSupport.parkNanos(this, tickNanos);
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
                log.error("the lease was lost; no ID is issued until a new one is taken: " + e.getMessage());
                failing = "the loss of the lease";
            } catch (ClockSkewException e) {
                failures.incrementAndGet();
                if (!e.getMessage().equals(failing)) {
                    log.error("refusing to lease: " + e.getMessage());
                    failing = e.getMessage();
                }
            } catch (RuntimeException e) {
                failures.incrementAndGet();
                if (failing == null) {
                    log.warn("the lease API failed; retrying, and no ID is issued once the lease window has ended: " + e.getMessage());
                    failing = e.getMessage();
                }
            }
        }
    }
}
