package dev.snowid.client;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where a {@link SnowidClient} says what happened to its lease: taken, renewed again after
 * failures, lost, released. By default {@code java.util.logging} (logger {@code dev.snowid.client}),
 * which every logging framework can bridge; the agent prints to stderr instead.
 */
public interface ClientLog {

    void info(String message);

    void warn(String message);

    void error(String message);

    /** Logs to {@code java.util.logging}, logger {@code dev.snowid.client}. */
    static ClientLog javaUtilLogging() {
        Logger logger = Logger.getLogger("dev.snowid.client");
        return new ClientLog() {
            @Override
            public void info(String message) {
                logger.log(Level.INFO, message);
            }

            @Override
            public void warn(String message) {
                logger.log(Level.WARNING, message);
            }

            @Override
            public void error(String message) {
                logger.log(Level.SEVERE, message);
            }
        };
    }
}
