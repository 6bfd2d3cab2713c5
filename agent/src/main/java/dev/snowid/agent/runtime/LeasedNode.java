package dev.snowid.agent.runtime;

import dev.snowid.agent.config.AgentConfigurationException;
import dev.snowid.agent.config.AgentProperties;
import dev.snowid.agent.config.AgentSettings;

import dev.snowid.client.ClientSettings;
import dev.snowid.client.SnowidClient;
import dev.snowid.internal.Setting;
import dev.snowid.protocol.HolderLabel;
import dev.snowid.protocol.HttpUrl;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * A node leased from the lease API for this JVM's lifetime, through a {@link SnowidClient}: leased
 * in premain (so a wrong URL, a refused secret or a full pool stops the JVM at once, unless it is
 * asked to wait for a slot), renewed by the client's daemon thread, released by a shutdown hook
 * with the last issued timestamp.
 */
public final class LeasedNode implements LongSupplier {

    private final SnowidClient client;
    private final Thread releaseAtExit;

    private LeasedNode(SnowidClient client, Thread releaseAtExit) {
        this.client = client;
        this.releaseAtExit = releaseAtExit;
    }

    /**
     * Releases the slot now, and not again at exit: for a start that failed after leasing (the
     * bridge or the redirection could not be installed), so that the slot is free at once.
     */
    public void releaseNow() {
        try {
            Runtime.getRuntime().removeShutdownHook(releaseAtExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway; closing twice is harmless
        }
        client.close();
    }

    public static LeasedNode start(AgentSettings settings) {
        SnowidClient.Builder builder = SnowidClient.builder().leaseUrl(settings.leaseUrl());
        if (settings.leaseSigned()) {
            builder.signing(IamSigning.of(settings));
        } else {
            builder.secret(settings.leaseSecret()).allowPlainHttp(settings.allowPlainHttp());
        }
        builder.holder(HolderLabel.of("snowid-agent " + ManagementFactory.getRuntimeMXBean().getName()))
                .waitForSlotUpTo(settings.waitForSlotMillis())
                .startupDeadline(settings.startupDeadlineMillis())
                .auditAtInfo(settings.auditAtInfo()) // else audit lines go below INFO, which stderr does not print
                .log(AgentLog.ForClient.LOG);
        if (settings.epochConfigured()) {
            builder.codec(settings.codec()); // else the lease API's epoch is adopted
        }
        if (settings.leaseMillis() > 0) {
            builder.leaseMillis(settings.leaseMillis());
        }
        SnowidClient client;
        try {
            client = builder.build();
        } catch (RuntimeException e) {
            throw failedStart(settings, e);
        }
        Thread releaseAtExit = new Thread(new Release(client), "snowid-lease-release");
        Runtime.getRuntime().addShutdownHook(releaseAtExit);
        return new LeasedNode(client, releaseAtExit);
    }

    /** Why start-up got no lease, naming the property to fix: the client says which of its settings ({@link ClientSettings#toFix}). */
    private static RuntimeException failedStart(AgentSettings settings, RuntimeException e) {
        Setting<?> toFix = ClientSettings.toFix(e);
        if (toFix == null) { // this machine's clock: no setting fixes it
            return new AgentStartException("no lease at start-up: " + e.getMessage(), e);
        }
        if (toFix == ClientSettings.WAIT_FOR_SLOT) {
            return new AgentStartException("no lease at start-up: " + e.getMessage() + (settings.waitForSlotMillis() > 0 ? ""
                    : " To wait at start-up instead of exiting, set " + AgentProperties.WAIT_FOR_SLOT + "=<ms> (or "
                    + AgentProperties.envName(AgentProperties.WAIT_FOR_SLOT) + ")."), e);
        }
        if (toFix == ClientSettings.CODEC) {
            return new AgentConfigurationException(AgentProperties.EPOCH + "='" + settings.codec().epochMillis()
                    + "' is not the lease API's epoch: " + e.getMessage() + " (or leave " + AgentProperties.EPOCH + " unset)", e);
        }
        return new AgentConfigurationException(AgentProperties.LEASE_URL + "='" + HttpUrl.shown(settings.leaseUrl().toString())
                + "': no lease from the lease API at start-up: " + e.getMessage()
                + (ClientSettings.unanswered(e) ? "; " + AgentProperties.STARTUP_DEADLINE + "=" + settings.startupDeadlineMillis()
                + " says how long start-up asks again" : "")
                + " (the URL must be the snowid function's base URL, reachable from here, and " + (settings.leaseSigned()
                ? "this workload's AWS role allowed execute-api:Invoke on it and listed in the function's LeasePrincipals)"
                : AgentProperties.envName(AgentProperties.LEASE_SECRET) + " its bearer secret)"), e);
    }

    /** The client: its codec is the epoch IDs are issued with (the configured one, or the lease API's). */
    public SnowidClient client() {
        return client;
    }

    /** What the bridge calls. */
    @Override
    public long getAsLong() {
        return client.nextId();
    }

    /** The shutdown hook: releases the slot with the last issued ms; a call racing it gets no new lease. */
    private static final class Release implements Runnable {
        private final SnowidClient client;

        Release(SnowidClient client) {
            this.client = client;
        }

        @Override
        public void run() {
            client.close();
        }
    }
}
