package dev.snowid.client;

/** Logs for tests of the client. */
final class ClientLogs {

    /** Says nothing: for tests that read the client's state, not its words. */
    static final ClientLog SILENT = new ClientLog() {
        @Override
        public void info(String message) {
        }

        @Override
        public void warn(String message) {
        }

        @Override
        public void error(String message) {
        }
    };

    private ClientLogs() {
    }
}
