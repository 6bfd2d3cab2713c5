package dev.snowid.agent;

import java.util.function.LongSupplier;

/** Placeholder until core's LeasedGenerator lands. */
final class LeasedNode {
    static LeasedNode start(AgentSettings settings) {
        throw new AgentConfigurationException(AgentSettings.LEASE_URL + ": lease mode is not built yet");
    }

    LongSupplier generator() {
        return null;
    }
}
