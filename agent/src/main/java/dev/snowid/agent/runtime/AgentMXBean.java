package dev.snowid.agent.runtime;

import java.util.Map;

/**
 * The agent as an operator sees it in JConsole or through a JMX exporter, under
 * {@code dev.snowid:type=Agent}: which node it issues from, how much of its lease is left, and
 * what it has done since the JVM started. Counters only grow.
 */
public interface AgentMXBean {

    /** {@code node} (a fixed slot from configuration) or {@code lease} (leased from the lease API). */
    String getMode();

    /** The slot IDs come from, {@code datacenter:machine}; empty while no lease is held. */
    String getSlot();

    /** Ms until the lease's window ends; -1 without a lease (always, in node mode). */
    long getLeaseMillisLeft();

    /** IDs handed to redirected methods. */
    long getIdsIssued();

    /**
     * Calls refused (nothing issued) by reason, the lease API's codes: {@code no_free_slot},
     * {@code store_unavailable}, {@code clock_behind}, {@code clock_skew}, {@code unavailable}.
     */
    Map<String, Long> getRefusals();

    /** Lease renewals confirmed (lease mode). */
    long getRenewals();

    /** Renewal attempts that failed without losing the lease: the API unreachable or failing (lease mode). */
    long getRenewalFailures();

    /** Leases found taken over or released under us (lease mode). */
    long getLeasesLost();
}
