package dev.snowid.agent;

import java.util.function.LongSupplier;

/** TEMPORARY stub until LeasedGenerator is on main. */
final class LeasedNode {
    static LeasedNode start(AgentSettings settings) {
        try {
            new HttpLeaseSource(settings.leaseUrl(), settings.leaseSecret(), "x").acquire();
        } catch (RuntimeException e) {
            throw new AgentConfigurationException(AgentSettings.LEASE_URL + "='" + settings.leaseUrl()
                    + "': no lease from the lease API at start-up: " + e.getMessage(), e);
        }
        throw new AgentConfigurationException("stub");
    }

    LongSupplier generator() {
        return null;
    }
}
