package dev.snowid.agent;

import dev.snowid.client.ClientLog;

/** The agent's few lines on stderr, prefixed {@code [snowid]} so they stand out in the application's log. */
final class AgentLog {

    /** The lease client's events, on the same lines. */
    static final ClientLog CLIENT_LOG = new ClientLog() {
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

        /** Audit lines as they are, after the prefix: one JSON object a log shipper can take apart. */
        @Override
        public void audit(String jsonLine) {
            AgentLog.info(jsonLine);
        }
    };

    private AgentLog() {
    }

    static void info(String message) {
        System.err.println("[snowid] " + message);
    }

    static void warn(String message) {
        System.err.println("[snowid] WARNING: " + message);
    }

    static void error(String message) {
        System.err.println("[snowid] ERROR: " + message);
    }
}
