package dev.snowid.client;

import java.util.concurrent.locks.LockSupport;

/**
 * When a {@link LeaseRenewer} looks at its lease: every tick, and at once when woken. Production
 * uses {@link #thread()}, a daemon thread of its own; a deterministic simulator schedules the
 * looks on its virtual time instead (testing/simulator).
 */
interface RenewalScheduler {

    /** Runs {@code look} every {@code tickNanos}, and soon after {@link #wake()}, until {@link #stop()}. */
    void start(Runnable look, long tickNanos);

    void wake();

    void stop();

    /** A daemon thread named {@link LeaseRenewer#THREAD_NAME}, parking between looks. */
    static RenewalScheduler thread() {
        return new DaemonThread();
    }

    /** A named class, not a lambda: the agent's start-up path bootstraps none (StartUpPathTest). */
    final class DaemonThread implements RenewalScheduler, Runnable {
        private volatile Thread thread;
        private volatile boolean stopped;
        private Runnable look;
        private long tickNanos;

        @Override
        public void start(Runnable look, long tickNanos) {
            this.look = look;
            this.tickNanos = tickNanos;
            Thread started = new Thread(this, LeaseRenewer.THREAD_NAME); // start() publishes both fields to it
            started.setDaemon(true);
            thread = started;
            started.start();
        }

        /** The thread's loop: a look every tick, or at once when woken, until stopped. */
        @Override
        public void run() {
            while (!stopped) {
                LockSupport.parkNanos(this, tickNanos);
                if (!stopped) {
                    look.run();
                }
            }
        }

        @Override
        public void wake() {
            LockSupport.unpark(thread);
        }

        @Override
        public void stop() {
            stopped = true;
            LockSupport.unpark(thread);
        }
    }
}
