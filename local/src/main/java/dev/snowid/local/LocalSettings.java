package dev.snowid.local;

import dev.snowid.dynalite.DynaliteSettings;
import dev.snowid.internal.NumberRange;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.internal.SettingValues;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.client.BearerSecretStrength;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The local runner's own settings ({@link #CATALOGUE}), on top of the function's
 * ({@link FunctionSettings}); the runner's process reads both, and warns about any other
 * {@code SNOWID_*} variable ({@link #PROCESS}). None of the runner's own is for a deployment
 * (the deploy test checks the template against them).
 */
public final class LocalSettings {

    /** The port it listens on (localhost), default 8080; 0 picks a free one. */
    public static final String LOCAL_PORT = "SNOWID_PORT";
    /** The plain bearer secret; it is hashed at start. Made up and printed when unset. */
    public static final String LOCAL_LEASE_SECRET = "SNOWID_LEASE_SECRET";
    /** A folder with dynalite installed (node_modules/dynalite), instead of finding or installing one. */
    public static final String LOCAL_DYNALITE_DIR = DynaliteSettings.DYNALITE_DIR;
    /** The file with the credential of a local claim registry ({@code run-local.sh registry} prints it). */
    public static final String LOCAL_REGISTRY_CREDENTIAL_FILE = "SNOWID_REGISTRY_CREDENTIAL_FILE";

    public static final int DEFAULT_LOCAL_PORT = 8080;

    private static final Setting<Long> PORT = Setting.named(LOCAL_PORT)
            .in(NumberRange.of(0, 65_535, "a TCP port; 0 picks a free one")).byDefault(Integer.toString(DEFAULT_LOCAL_PORT))
            .means("the port on localhost (0: any free one)");
    private static final Setting<String> SECRET = Setting.named(LOCAL_LEASE_SECRET).secret()
            .parsedBy(String::trim) // as the lease routes trim the secret a client presents, so both hash the same text
            .unsetMeans("made up and printed")
            .allowed(BearerSecretStrength.ALLOWED)
            .means("the plain bearer secret of the lease routes (hashed at start)");
    private static final Setting<String> DYNALITE_DIR = Setting.named(LOCAL_DYNALITE_DIR).unsetMeans("found or installed")
            .means("a folder with dynalite installed (node_modules/dynalite)");
    private static final Setting<String> REGISTRY_CREDENTIAL = Setting.named(LOCAL_REGISTRY_CREDENTIAL_FILE)
            .unsetMeans("none")
            .allowed("the file run-local.sh registry printed: yours alone, mode 600, with " + FunctionSettings.REGISTRY_ENDPOINT
                    + " on loopback")
            .means("the credential file of a local claim registry (run-local.sh registry), sent to its endpoint");
    private static final Setting<String> CACHE_HOME = Setting.named(DynaliteSettings.XDG_CACHE_HOME).unsetMeans("~/.cache")
            .means("where the per-user dynalite install goes (snowid/dynalite/…)");

    /** The runner's own settings: the one declaration of each. */
    public static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the local runner", PORT, SECRET, DYNALITE_DIR, CACHE_HOME,
            REGISTRY_CREDENTIAL);

    /** What the runner's process reads: its own settings and the function's. */
    public static final SettingCatalogue PROCESS = CATALOGUE.with("the local runner", FunctionSettings.CATALOGUE);

    /** The runner's own variables, which the function's settings do not warn about. */
    static final List<String> VARIABLES = CATALOGUE.names();

    private LocalSettings() {
    }

    /** The port ({@value #LOCAL_PORT}), 0 to 65535. */
    public static int port(Map<String, String> env) {
        return read(env).get(PORT).intValue();
    }

    /** The plain bearer secret ({@value #LOCAL_LEASE_SECRET}), if one is set. */
    public static Optional<String> leaseSecret(Map<String, String> env) {
        return Optional.ofNullable(read(env).get(SECRET)).filter(secret -> !secret.isEmpty());
    }

    /** The local claim registry's credential file ({@value #LOCAL_REGISTRY_CREDENTIAL_FILE}), if one is set. */
    public static Optional<String> registryCredentialFile(Map<String, String> env) {
        return Optional.ofNullable(read(env).get(REGISTRY_CREDENTIAL)).filter(file -> !file.isEmpty());
    }

    /** The runner's own values in {@code env}, read as the function reads its own: a refusal names the variable. */
    static SettingValues read(Map<String, String> env) {
        return FunctionSettings.values(env, CATALOGUE);
    }

    /**
     * One line per {@code SNOWID_*} variable of {@code env} the runner's process does not read,
     * with the closest name it does: printed once at start.
     */
    public static List<String> warnings(Map<String, String> env) {
        return PROCESS.unknownNames("environment variable", env.keySet(), "SNOWID_");
    }

    /**
     * What the function's handlers are given: {@code env} without the runner's own variables and
     * without those nobody reads (the runner warned about them once already).
     */
    static Map<String, String> forFunction(Map<String, String> env) {
        Map<String, String> function = new HashMap<>(env);
        function.keySet().removeIf(name -> name.startsWith("SNOWID_") && !FunctionSettings.CATALOGUE.reads(name));
        return function;
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
        int size = FunctionSettings.from(env, VARIABLES).pool().size();
        if (size < 2) {
            return env;
        }
        Map<String, String> split = new HashMap<>(env);
        split.put(FunctionSettings.AGENT_SLOTS, Integer.toString(Math.max(1, size / 4)));
        return split;
    }
}
