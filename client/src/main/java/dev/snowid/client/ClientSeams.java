package dev.snowid.client;

import dev.snowid.MonotonicClock;
import dev.snowid.lease.LeaseSource;

/**
 * What a {@link SnowidClient} takes from outside besides its settings: where leases come from,
 * and the time its first lease and its renewer run on. Production: the HTTP lease API, the
 * system's monotonic clock and a daemon thread. Tests of the life cycle give another lease
 * source; the deterministic simulator (testing/simulator) gives all of them, on virtual time.
 */
final class ClientSeams {

    static final ClientSeams PRODUCTION = new ClientSeams(null, new NothingToForget(), MonotonicClock.SYSTEM, null);

    /** Null: the HTTP lease API of the builder's settings. */
    final LeaseSource source;
    /** What {@link #source} forgets after a snapshot restore (the HTTP API's source forgets its own). */
    final Runnable forgetAfterRestore;
    final MonotonicClock monotonic;
    /** Null: a daemon thread ({@link RenewalScheduler#thread()}), one per client. */
    final RenewalScheduler ticks;

    ClientSeams(LeaseSource source, Runnable forgetAfterRestore, MonotonicClock monotonic, RenewalScheduler ticks) {
        this.source = source;
        this.forgetAfterRestore = forgetAfterRestore;
        this.monotonic = monotonic;
        this.ticks = ticks;
    }

    ClientSeams withSource(LeaseSource source) {
        return new ClientSeams(source, forgetAfterRestore, monotonic, ticks);
    }

    RenewalScheduler ticks() {
        return ticks != null ? ticks : RenewalScheduler.thread();
    }

    /** Named classes here and in what the agent starts with, not lambdas: the agent's start-up path bootstraps none. */
    private static final class NothingToForget implements Runnable {
        @Override
        public void run() {
        }
    }

    /** What the HTTP lease API's source forgets after a restore. */
    static final class ApiForgets implements Runnable {
        private final HttpLeaseSource api;

        ApiForgets(HttpLeaseSource api) {
            this.api = api;
        }

        @Override
        public void run() {
            api.forgetAfterRestore();
        }
    }
}
