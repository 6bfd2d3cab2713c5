package dev.snowid.agent;

import dev.snowid.IdUnavailableException;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * A node leased from the lease API for this JVM's lifetime: leased in premain (so a wrong URL,
 * a refused secret or an exhausted pool stops the JVM at once), renewed by a daemon thread well
 * before expiry, released at shutdown with the last issued timestamp. Between those, the
 * {@link LeasedGenerator} fails closed: no renewal confirmed, no ID past the window.
 */
final class LeasedNode {

    /** The agent only warns when the API's clock is further off than this; skew costs availability, never uniqueness. */
    static final long MAX_CLOCK_SKEW_MILLIS = 2_000;

    private final LeasedGenerator generator;
    private final Thread renewer;
    private volatile boolean shuttingDown;

    private LeasedNode(LeasedGenerator generator, long leaseMillis) {
        this.generator = generator;
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
        long granted = first.window().expiresAt() - WallClock.SYSTEM.millis();
        long leaseMillis = settings.leaseMillis() > 0 ? settings.leaseMillis()
                : Math.max(LeaseTerms.MIN_LEASE_MILLIS, Math.min(LeaseTerms.MAX_LEASE_MILLIS, granted));
        LeasedGenerator generator = new LeasedGenerator(new FirstLease(first, api),
                LeaseTerms.of(leaseMillis, MAX_CLOCK_SKEW_MILLIS), WallClock.SYSTEM, settings.codec());
        // The first ID adopts the lease just taken (and is dropped: gaps are normal), so renewals start now.
        try {
            generator.nextId();
        } catch (IdUnavailableException e) {
            throw new AgentConfigurationException(AgentSettings.LEASE_URL + "='" + settings.leaseUrl() + "': the lease "
                    + first + " cannot be used: " + e.getMessage(), e);
        }
        LeasedNode node = new LeasedNode(generator, leaseMillis);
        node.renewer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(node::release, "snowid-lease-release"));
        AgentLog.info("took " + first + " from " + settings.leaseUrl() + "; renewing every ~" + leaseMillis / 2 + " ms");
        return node;
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

    private void renewUntilShutdown(long leaseMillis) {
        long tick = Math.max(100, Math.min(1_000, leaseMillis / 20));
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

    private void release() {
        shuttingDown = true;
        renewer.interrupt();
        try {
            String lease = generator.currentLease().map(Lease::toString).orElse(null);
            generator.release();
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
