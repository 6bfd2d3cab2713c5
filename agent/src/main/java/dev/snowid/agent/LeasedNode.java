package dev.snowid.agent;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import java.lang.management.ManagementFactory;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * A node leased from the lease API for this JVM's lifetime: leased in premain (so a wrong URL,
 * a refused secret or an exhausted pool stops the JVM at once), renewed by a daemon thread well
 * before expiry, released at shutdown with the last issued timestamp. Between those, the
 * {@link LeasedGenerator} fails closed: no renewal confirmed, no ID past the window. Application
 * threads never renew: they only wait on the lease API once the window has ended.
 */
final class LeasedNode {

    /**
     * The agent only warns when the API's clock is further off than this; skew costs availability,
     * never uniqueness. A new lease's floor that is at most this far ahead of our clock is waited for.
     */
    static final long MAX_CLOCK_SKEW_MILLIS = 2_000;

    private final LeasedGenerator generator;
    /** The lease length renewals are planned with. */
    private final long leaseMillis;
    private final Thread renewer;
    private volatile boolean shuttingDown;

    private LeasedNode(LeasedGenerator generator, long leaseMillis) {
        this.generator = generator;
        this.leaseMillis = leaseMillis;
        this.renewer = new Thread(() -> renewUntilShutdown(leaseMillis), "snowid-lease-renewer");
        this.renewer.setDaemon(true);
    }

    static LeasedNode start(AgentSettings settings) {
        HttpLeaseSource api = new HttpLeaseSource(settings.leaseUrl(), settings.leaseSecret(), holder());
        Lease first;
        try {
            first = api.acquire();
        } catch (RuntimeException e) {
            throw new AgentConfigurationException(AgentSettings.LEASE_URL + "='" + settings.leaseUrl()
                    + "': no lease from the lease API at start-up: " + e.getMessage()
                    + " (the URL must be the snowid function's base URL, reachable from here, and "
                    + AgentSettings.envName(AgentSettings.LEASE_SECRET) + " its bearer secret)", e);
        }
        long skew = api.clockSkewMillis();
        if (Math.abs(skew) > MAX_CLOCK_SKEW_MILLIS + 1_000) { // + 1 s: the Date header has whole seconds
            AgentLog.warn("this machine's clock is " + Math.abs(skew) + " ms " + (skew > 0 ? "ahead of" : "behind")
                    + " the lease API's: IDs stay unique, but each lease is usable that much " + (skew > 0 ? "shorter" : "later")
                    + "; synchronise the clock (NTP)");
        }
        LeasedNode node = start(api, first, settings.leaseMillis(), settings.codec(), WallClock.SYSTEM,
                AgentSettings.LEASE_URL + "='" + settings.leaseUrl() + "'");
        Runtime.getRuntime().addShutdownHook(new Thread(node::shutdown, "snowid-lease-release"));
        AgentLog.info("took " + first + " from " + settings.leaseUrl() + "; renewing every ~" + node.leaseMillis / 2 + " ms");
        return node;
    }

    /**
     * A node on {@code api} that starts with {@code first}, the lease already taken; renewals run
     * on a daemon thread from now on. {@code setting} names the configuration in error messages.
     */
    static LeasedNode start(LeaseSource api, Lease first, long configuredLeaseMillis, SnowflakeCodec codec, WallClock clock,
            String setting) {
        long leaseMillis = planningLeaseMillis(configuredLeaseMillis, first.window().expiresAt() - clock.millis());
        LeasedGenerator generator = LeasedGenerator.builder(new FirstLease(first, api),
                        LeaseTerms.of(leaseMillis, MAX_CLOCK_SKEW_MILLIS), clock, codec)
                .renewInBackground() // application threads never wait for a renewal while the window holds
                .waitForFloorUpTo(MAX_CLOCK_SKEW_MILLIS) // the floor is another clock's: a little behind it, wait
                .build();
        // The first ID adopts the lease just taken (and is dropped: gaps are normal), so renewals start now.
        try {
            generator.nextId();
        } catch (IdUnavailableException e) {
            try {
                generator.shutdown(); // the JVM stops: free the slot rather than let it run out
            } catch (RuntimeException releaseFailed) {
                e.addSuppressed(releaseFailed);
            }
            throw new AgentConfigurationException(setting + ": the lease " + first + " cannot be used: " + e.getMessage(), e);
        }
        LeasedNode node = new LeasedNode(generator, leaseMillis);
        node.renewer.start();
        return node;
    }

    /**
     * The lease length renewals are planned with (renewal once less than half is left): the
     * configured one, but never longer than the API granted, or every moment would be "due";
     * without a configured one, what the API granted. Within the API's own bounds.
     */
    static long planningLeaseMillis(long configuredMillis, long grantedMillis) {
        long planned = configuredMillis > 0 ? Math.min(configuredMillis, grantedMillis) : grantedMillis;
        return Math.max(LeaseTerms.MIN_LEASE_MILLIS, Math.min(LeaseTerms.MAX_LEASE_MILLIS, planned));
    }

    /** What the bridge calls. After shutdown began nothing is issued: the lease is being released. */
    LongSupplier generator() {
        return () -> {
            if (shuttingDown) {
                throw new IdUnavailableException("the JVM is shutting down and its snowid lease is released; no ID is issued", 1000);
            }
            return generator.nextId();
        };
    }

    /** The lease in force, as last confirmed. */
    Optional<Lease> currentLease() {
        return generator.currentLease();
    }

    private void renewUntilShutdown(long leaseMillis) {
        long tick = renewalTickMillis(leaseMillis);
        boolean failing = false;
        while (!shuttingDown) {
            try {
                Thread.sleep(tick);
                generator.renewIfDue();
                if (failing) {
                    AgentLog.info("lease renewed again: " + generator.currentLease().map(Lease::toString).orElse("-"));
                    failing = false;
                }
            } catch (InterruptedException e) {
                return;
            } catch (LeaseLostException e) {
                AgentLog.error("the lease was lost (" + e.getMessage() + "); redirected methods throw until a new lease is taken on the next call");
            } catch (RuntimeException e) {
                if (!failing) {
                    AgentLog.warn("lease renewal failed, retrying; IDs stop when the lease runs out: " + e.getMessage());
                    failing = true;
                }
            }
        }
    }

    /** How often the renewer looks whether a renewal is due: a twentieth of the lease, 0.1 to 1 s. */
    static long renewalTickMillis(long leaseMillis) {
        return Math.max(100, Math.min(1_000, leaseMillis / 20));
    }

    /**
     * The shutdown hook: stops the renewer, then shuts the generator down for good (closed,
     * released with the last issued ms, and no new lease for a thread that races this hook).
     */
    void shutdown() {
        shuttingDown = true;
        renewer.interrupt();
        try {
            String lease = generator.currentLease().map(Lease::toString).orElse(null);
            generator.shutdown();
            if (lease != null) {
                AgentLog.info("released " + lease);
            }
        } catch (RuntimeException e) {
            AgentLog.warn("could not release the lease (it simply runs out): " + e.getMessage());
        }
    }

    private static String holder() {
        return "snowid-agent " + ManagementFactory.getRuntimeMXBean().getName();
    }

    /** Hands out the lease taken at start-up once, then asks the API. */
    private static final class FirstLease implements LeaseSource {
        private final LeaseSource api;
        private Lease first;

        FirstLease(Lease first, LeaseSource api) {
            this.first = first;
            this.api = api;
        }

        @Override
        public synchronized Lease acquire() {
            Lease lease = first;
            first = null;
            return lease != null ? lease : api.acquire();
        }

        @Override
        public Lease renew(Lease lease) {
            return api.renew(lease);
        }

        @Override
        public void release(Lease lease, long lastIssuedMillis) {
            api.release(lease, lastIssuedMillis);
        }
    }
}
