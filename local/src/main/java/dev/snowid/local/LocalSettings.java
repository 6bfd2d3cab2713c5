package dev.snowid.local;

import dev.snowid.dynalite.DynaliteSettings;
import dev.snowid.lambda.settings.FunctionSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The local runner's own settings, on top of the function's ({@link FunctionSettings}). Every
 * constant here whose field name starts with {@code LOCAL_} is a variable no deployment may set
 * (the deploy test checks the template against them).
 */
public final class LocalSettings {

    /** The port it listens on (localhost), default 8080; 0 picks a free one. */
    public static final String LOCAL_PORT = "SNOWID_PORT";
    /** The plain bearer secret; it is hashed at start. Made up and printed when unset. */
    public static final String LOCAL_LEASE_SECRET = "SNOWID_LEASE_SECRET";
    /** A folder with dynalite installed (node_modules/dynalite), instead of finding or installing one. */
    public static final String LOCAL_DYNALITE_DIR = DynaliteSettings.DYNALITE_DIR;

    public static final int DEFAULT_LOCAL_PORT = 8080;
    /** The runner's own variables, which the function's settings do not warn about. */
    static final java.util.List<String> VARIABLES = java.util.List.of(LOCAL_PORT, LOCAL_LEASE_SECRET, LOCAL_DYNALITE_DIR);

    private LocalSettings() {
    }

    /** The port ({@value #LOCAL_PORT}), 0 to 65535. */
    public static int port(Map<String, String> env) {
        return (int) FunctionSettings.number(env, LOCAL_PORT, DEFAULT_LOCAL_PORT, 0, 65_535, "a TCP port; 0 picks a free one");
    }

    /** The plain bearer secret ({@value #LOCAL_LEASE_SECRET}), if one is set. */
    public static Optional<String> leaseSecret(Map<String, String> env) {
        // Trimmed as the lease routes trim the secret a client presents, so both hash the same text.
        return Optional.ofNullable(env.get(LOCAL_LEASE_SECRET)).map(String::trim).filter(secret -> !secret.isEmpty());
    }

    /**
     * The environment with the pool split as the template splits it, unless
     * {@value FunctionSettings#AGENT_SLOTS} is set: the template keeps 32 of a block's 128 slots
     * for agents, so here a quarter of the pool (at least one; a pool of one slot stays shared).
     * A client draining {@code POST /leases} then cannot stop the runner's own {@code /ids}.
     */
    public static Map<String, String> withPoolSplit(Map<String, String> env) {
        String set = env.get(FunctionSettings.AGENT_SLOTS);
        if (set != null && !set.isEmpty()) {
            return env;
        }
        int size = FunctionSettings.from(env).pool().size();
        if (size < 2) {
            return env;
        }
        Map<String, String> split = new HashMap<>(env);
        split.put(FunctionSettings.AGENT_SLOTS, Integer.toString(Math.max(1, size / 4)));
        return split;
    }
}
