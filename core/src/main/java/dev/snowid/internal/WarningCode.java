package dev.snowid.internal;

/**
 * Every warning a front end logs, and the few errors of a front end's own that the lease API has
 * no code for (the agent's start, its redirects), each under one stable code ({@link ProblemCode}):
 * the line starts with {@code [code]}. A line about a condition the lease API names with an error code
 * (a lost lease, a full pool, clock skew) carries that code instead, so each condition has one
 * entry in {@code docs/troubleshooting.md}. Said where, in brackets.
 */
public enum WarningCode implements ProblemCode {

    // Settings (every front end that reads names: SettingCatalogue says these)
    /** A {@code SNOWID_*} variable, {@code snowid.*} property or file key that the front end does not read. */
    UNKNOWN_SETTING,
    /** A setting that does not apply here and is ignored (the agent: {@code SNOWID_LEASE_MILLIS} with a fixed node). */
    IGNORED_SETTING,
    /** The agent's configuration file names another ({@code snowid.config} in the file). */
    NESTED_CONFIG_FILE,
    /** The agent's lease secret is a system property, which shows in the process list. */
    SECRET_IN_SYSTEM_PROPERTY,
    /** The agent's lease secret is in a file every user of the machine can read. */
    SECRET_FILE_READABLE,
    /** The agent's lease URL is plain http to a host that is not loopback; requests are signed, no secret is sent. */
    UNENCRYPTED_LEASE_URL,
    /**
     * A bearer secret would go over plain http to a host that is not loopback, without the front end's opt-in: refused (the
     * agent, its CLI, the client, the starter; an error).
     */
    SECRET_OVER_PLAIN_HTTP,
    /** The agent's configuration file, a directory on its path or a link to it may be changed by another user: refused (an error). */
    CONFIG_FILE_UNTRUSTED,

    // Secrets (errors at start, in every front end that holds one)
    /** A bearer secret an estimator guesses in fewer than 2^128 tries, or the empty string's hash used as one (the runner, the agent, its CLI, the client, the starter). */
    WEAK_LEASE_SECRET,
    /** A secret's hash setting holds the SHA-256 of the empty string: the secret was unset when hashed (the function, the authorizer, the runner). */
    EMPTY_SECRET_HASH,

    // The agent's redirects
    /** A preset's library issued IDs with another epoch than snowid will (the agent, at start). */
    PRESET_EPOCH_DIFFERS,
    /** A generator library is in use and only some of its methods are targets (the agent, on class load). */
    LIBRARY_PARTLY_REDIRECTED,
    /** A generator library is in use and none of its methods is a target (the agent, on class load). */
    LIBRARY_NOT_REDIRECTED,
    /** A target names no method the agent can redirect (the agent, on class load and at shutdown). */
    TARGET_NOT_REDIRECTED,
    /** No class loader loaded a target's class while the JVM ran (the agent, at shutdown). */
    TARGET_CLASS_NOT_FOUND,
    /** Byte Buddy failed to redirect or retransform a class: its methods keep their own bodies (the agent; an error). */
    REDIRECT_FAILED,

    // The agent's life
    /** A second {@code -javaagent} or attach in a JVM where the agent runs; ignored. */
    AGENT_ALREADY_RUNNING,
    /** The agent did not start; the lines before say why, and what the failed start undid (an error, and warnings for each step undone). */
    AGENT_NOT_STARTED,
    /** A failed start could not undo one of its steps (a lease, a transformer): restart the JVM (an error). */
    START_NOT_UNDONE,
    /** The agent's JMX MBean could not be registered; IDs are not affected. */
    MBEAN_NOT_REGISTERED,

    // Leases (the client, and the agent and starter through it; the function)
    /** A renewal failed; retried while the lease window lasts (the client, and the agent and starter through it). */
    LEASE_API_FAILED,
    /** No settled answer to the first acquisition; asked again with the same request id (the client). */
    ACQUISITION_UNSETTLED,
    /** The first acquisition could not connect to the lease API: asked again, then start-up fails (the client, its front ends). */
    LEASE_API_UNREACHABLE,
    /** A lease could not be released at close or before a snapshot; it runs out by itself (the client, the function). */
    LEASE_RELEASE_FAILED,

    // The function
    /** The lease store or the claim registry did not close cleanly at shutdown. */
    CLOSE_FAILED,
    /** SnapStart priming failed before the checkpoint; the first requests load what it would have. */
    PRIMING_FAILED,

    // The local runner
    /** The runner's port is taken by another process: it did not start (an error). */
    PORT_IN_USE,
    /** The runner's dynalite exited and is being restarted on the same tables. */
    ENGINE_RESTARTING,
    /** Restarting dynalite failed; tried again with a longer pause. */
    ENGINE_RESTART_FAILED,
    /** Watching dynalite failed unexpectedly; tried again. */
    ENGINE_WATCH_FAILED,
    /** The local lease table lost rows: nothing is handed out until every lease it held has run out. */
    ENGINE_QUARANTINED;

    private final String code = name().toLowerCase(java.util.Locale.ROOT);

    @Override
    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code;
    }
}
