package dev.snowid.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

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

    /** Keeps the warnings and errors, as {@code "WARN <message>"} and {@code "ERROR <message>"}, in order. */
    static final class Recorded implements ClientLog {
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

        @Override
        public void info(String message) {
        }

        @Override
        public void warn(String message) {
            lines.add("WARN " + message);
        }

        @Override
        public void error(String message) {
            lines.add("ERROR " + message);
        }

        /** The next line, waiting up to 10 s for it. */
        String next() throws InterruptedException {
            String line = lines.poll(10, TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError("nothing logged within 10 s");
            }
            return line;
        }

        /** The lines logged so far, not waiting. */
        List<String> sofar() {
            return new ArrayList<>(lines);
        }
    }

    private ClientLogs() {
    }
}
