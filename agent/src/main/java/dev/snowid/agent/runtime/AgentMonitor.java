package dev.snowid.agent.runtime;

import dev.snowid.IdUnavailableException;
import dev.snowid.Slot;
import dev.snowid.client.ClientStats;
import dev.snowid.client.Refusals;
import dev.snowid.client.SnowidClient;
import dev.snowid.internal.WarningCode;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.function.LongSupplier;
import javax.management.ObjectName;

/**
 * Counts what the redirected methods get (refusals by reason; the IDs are counted per target by
 * {@link RedirectedCalls}, so that a call pays for one counter, not two) and answers the
 * {@link AgentMXBean}; the lease's side comes from the {@link SnowidClient}'s own statistics.
 */
public final class AgentMonitor implements AgentMXBean, LongSupplier {

    /**
     * {@code dev.snowid:type=Agent}, joined at run time: the agent jar relocates every string that
     * starts with {@code dev.snowid} (its shaded copy of core), and would rename the literal too.
     */
    static final String OBJECT_NAME = String.join(".", "dev", "snowid") + ":type=Agent";

    private final LongSupplier source;
    private final Slot node;
    private final SnowidClient client;
    private final Refusals refusals = new Refusals();
    private volatile RedirectedCalls issued;

    private AgentMonitor(LongSupplier source, Slot node, SnowidClient client) {
        this.source = source;
        this.node = node;
        this.client = client;
    }

    /** For a fixed node. */
    public static AgentMonitor ofNode(LongSupplier source, Slot node) {
        return new AgentMonitor(source, node, null);
    }

    /** For a leased node. */
    public static AgentMonitor ofLease(LongSupplier source, SnowidClient client) {
        return new AgentMonitor(source, null, client);
    }

    /** The generator as each target's source calls it: refusals counted. */
    @Override
    public long getAsLong() {
        try {
            return source.getAsLong();
        } catch (IdUnavailableException e) {
            throw refusals.count(e);
        }
    }

    /** Where the IDs handed out are counted. */
    public void countIssuedIn(RedirectedCalls calls) {
        issued = calls;
    }

    /**
     * Registers the MBean on a daemon thread, a second after start-up: creating the platform MBean
     * server costs tens of ms, which the application's start-up should not pay for.
     */
    /** How long after start-up the MBean is registered. */
    static final long REGISTRATION_DELAY_MILLIS = 1_000;

    public void registerInBackground() {
        Thread thread = new Thread(new Registration(this), "snowid-jmx");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public String getMode() {
        return client == null ? "node" : "lease";
    }

    @Override
    public String getSlot() {
        if (client == null) {
            return node.toString();
        }
        ClientStats stats = client.stats();
        return stats.lease().isPresent() ? stats.lease().get().slot().toString() : "";
    }

    @Override
    public long getLeaseMillisLeft() {
        return client == null ? -1 : client.stats().leaseMillisLeft();
    }

    @Override
    public long getIdsIssued() {
        RedirectedCalls calls = issued;
        return calls == null ? 0 : calls.total();
    }

    @Override
    public Map<String, Long> getRefusals() {
        return refusals.snapshot();
    }

    @Override
    public long getRenewals() {
        return client == null ? 0 : client.stats().renewals();
    }

    @Override
    public long getRenewalFailures() {
        return client == null ? 0 : client.stats().renewalFailures();
    }

    @Override
    public long getLeasesLost() {
        return client == null ? 0 : client.stats().leasesLost();
    }

    private static final class Registration implements Runnable {
        private final AgentMonitor monitor;

        Registration(AgentMonitor monitor) {
            this.monitor = monitor;
        }

        @Override
        public void run() {
            try {
                // Off the start-up path: the platform MBean server costs ~80 ms of CPU that the
                // application's own start-up competes with on a small machine. Nobody reads a JVM's
                // MBeans in its first second.
                Thread.sleep(REGISTRATION_DELAY_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            try {
                ManagementFactory.getPlatformMBeanServer().registerMBean(monitor, new ObjectName(OBJECT_NAME));
            } catch (Exception | LinkageError e) {
                AgentLog.warn(WarningCode.MBEAN_NOT_REGISTERED.tag("the MBean " + OBJECT_NAME + " could not be registered (IDs are not affected): " + e));
            }
        }
    }
}
