package dev.snowid.agent.runtime;

import dev.snowid.client.ClientLog;

/**
 * The agent's few lines on stderr: a UTC timestamp, then {@code [snowid]} so that they stand out
 * in the application's log, e.g. {@code 2025-05-01T10:15:30.123Z [snowid] WARNING: …}.
 */
public final class AgentLog {

    /** The lease client's events, on the same lines; a class of its own, which a fixed node (no client) never loads. */
    static final class ForClient {
        static final ClientLog LOG = new ClientLog() {
            @Override
            public void info(String message) {
                AgentLog.info(message);
            }

            @Override
            public void warn(String message) {
                AgentLog.warn(message);
            }

            @Override
            public void error(String message) {
                AgentLog.error(message);
            }

            /**
             * Audit lines as they are, after the prefix: one JSON object a log shipper can take apart; only
             * with snowid.lease.auditAtInfo=true (below INFO they are dropped: stderr has no lower level).
             */
            @Override
            public void audit(String jsonLine) {
                AgentLog.info(jsonLine);
            }
        };

        private ForClient() {
        }
    }

    private AgentLog() {
    }

    public static void info(String message) {
        System.err.println(prefix() + message);
    }

    public static void warn(String message) {
        System.err.println(prefix() + "WARNING: " + message);
    }

    public static void error(String message) {
        System.err.println(prefix() + "ERROR: " + message);
    }

    private static String prefix() {
        return LogTimestamp.format(System.currentTimeMillis()) + " [snowid] ";
    }
}
