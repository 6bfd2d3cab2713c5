package dev.snowid.client;

import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeasedGenerator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The daemon thread that keeps a {@link LeasedGenerator}'s lease renewed, so that the threads
 * asking for IDs never wait on the lease API while a window is in force. It looks every tick
 * whether a renewal is due (less than half the lease left) and keeps trying while renewals fail;
 * IDs stop when the window ends, never later.
 */
final class LeaseRenewer implements Runnable {

    static final String THREAD_NAME = "snowid-lease-renewer";

    private final LeasedGenerator generator;
    private final long tickMillis;
    private final ClientLog log;
    private final Thread thread;
    private volatile boolean stopped;
    private final AtomicLong renewals = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong losses = new AtomicLong();

    LeaseRenewer(LeasedGenerator generator, long leaseMillis, ClientLog log) {
        this.generator = generator;
        this.tickMillis = tickMillis(leaseMillis);
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
        thread.interrupt();
    }

    /** Renewals confirmed so far. */
    long renewals() {
        return renewals.get();
    }

    /** Renewal attempts that failed without losing the lease. */
    long failures() {
        return failures.get();
    }

    /** Renewals answered "no longer yours". */
    long losses() {
        return losses.get();
    }

    @Override
    public void run() {
        boolean failing = false;
        while (!stopped) {
            try {
                Thread.sleep(tickMillis);
                boolean renewed = generator.renewIfDue();
                if (renewed) {
                    renewals.incrementAndGet();
                }
                if (failing && renewed) {
                    log.info("lease renewed again: " + generator.currentLease().map(Lease::toString).orElse("no lease held"));
                    failing = false;
                }
            } catch (InterruptedException e) {
                return;
            } catch (LeaseLostException e) {
                losses.incrementAndGet();
                log.error("the lease was lost (" + e.getMessage() + "); no ID is issued until the next call takes a new lease");
            } catch (RuntimeException e) {
                failures.incrementAndGet();
                if (!failing) {
                    log.warn("lease renewal failed, retrying; IDs stop when the lease runs out: " + e.getMessage());
                    failing = true;
                }
            }
        }
    }
}
