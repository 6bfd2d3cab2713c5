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
        return new RenewalScheduler() {
            private volatile Thread thread;
            private volatile boolean stopped;

            @Override
            public void start(Runnable look, long tickNanos) {
                Thread started = new Thread(() -> {
                    while (!stopped) {
                        LockSupport.parkNanos(this, tickNanos);
                        if (!stopped) {
                            look.run();
                        }
                    }
                }, LeaseRenewer.THREAD_NAME);
                started.setDaemon(true);
                thread = started;
                started.start();
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
        };
    }
}
