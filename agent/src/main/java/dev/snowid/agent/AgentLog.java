package dev.snowid.agent;

/** The agent's few lines on stderr, prefixed {@code [snowid]} so they stand out in the application's log. */
final class AgentLog {

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
