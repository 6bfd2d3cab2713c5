package dev.snowid.client;

import dev.snowid.MonotonicClock;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import java.lang.reflect.Field;

/**
 * Builds a real {@link SnowidClient} for the simulator through its package-private seams: the
 * lease source ({@link SimulatedLeaseApi}), the monotonic clock its first lease waits on, and the
 * renewer's ticks on the simulator's scheduler instead of a thread of its own.
 */
public final class SimulatedClients {

    /** Runs a task after a delay of virtual time, as the simulated process that owns the client. */
    public interface Scheduler {
        void after(long delayNanos, String what, Runnable task);
    }

    private SimulatedClients() {
    }

    /** The renewer's ticks as simulator events; {@link #wake()} brings the next look forward, one chain of looks at a time. */
    public static final class Ticks implements RenewalScheduler {
        private final Scheduler scheduler;
        private Runnable look;
        private long tickNanos;
        private long chain;
        private boolean stopped;

        public Ticks(Scheduler scheduler) {
            this.scheduler = scheduler;
        }

        @Override
        public void start(Runnable look, long tickNanos) {
            this.look = look;
            this.tickNanos = tickNanos;
            next(tickNanos, ++chain);
        }

        private void next(long delayNanos, long ofChain) {
            scheduler.after(delayNanos, "renewer look", () -> {
                if (stopped || ofChain != chain) {
                    return;
                }
                look.run();
                next(tickNanos, ofChain);
            });
        }

        @Override
        public void wake() {
            if (!stopped && look != null) {
                next(1_000_000, ++chain);
            }
        }

        @Override
        public void stop() {
            stopped = true;
        }
    }

    /** A silent log: the simulator's trace says what happened. */
    static final class Silent implements ClientLog {
        @Override
        public void info(String message) {
        }

        @Override
        public void warn(String message) {
        }

        @Override
        public void error(String message) {
        }
    }

    /**
     * Builds the client as {@link SnowidClient.Builder#build()} does, leasing its first slot now.
     *
     * @param startupDeadlineMillis how long unsettled first acquisitions are asked again
     */
    public static SnowidClient build(SimulatedLeaseApi source, WallClock clock, MonotonicClock monotonic, Ticks ticks, String holder,
                                     SnowflakeCodec codec, long startupDeadlineMillis) {
        return SnowidClient.builder()
                .seams(new ClientSeams(source, new SimulatedLeaseApi.Forget(source), monotonic, ticks))
                .clock(clock)
                .holder(holder)
                .codec(codec)
                .log(new Silent())
                .snapshotHooks(false)
                .startupDeadline(startupDeadlineMillis)
                .build();
    }

    /** A restored copy's renewer starts looking, through the copy's own ticks (the snapshot copy put them in place of the original's). */
    public static void restartRenewer(SnowidClient copy) {
        LeaseRenewer renewer = (LeaseRenewer) read(copy, "renewer");
        renewer.start();
    }

    private static Object read(Object owner, String name) {
        try {
            Field field = owner.getClass().getDeclaredField(name);
            field.setAccessible(true);
            return field.get(owner);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("SnowidClient." + name + " is gone: the simulator's snapshot copy must follow the client", e);
        }
    }
}
