package dev.snowid.client;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where a {@link SnowidClient} says what happened to its lease: an audit line for every grant,
 * renewal, release and loss ({@link #audit(String)}, one JSON object per line), and in words
 * whatever needs a person's attention (failures, refusals, recoveries). By default
 * {@code java.util.logging} (loggers {@code dev.snowid.client} and {@code dev.snowid.client.audit}),
 * which every logging framework can bridge; the agent prints to stderr instead.
 */
public interface ClientLog {

    void info(String message);

    void warn(String message);

    void error(String message);

    /**
     * One audit line ({@link dev.snowid.protocol.LeaseAudit}): a flat JSON object with the lease's
     * slot, fence, holder, floor, expiry and the caller. By default logged like {@link #info(String)}.
     */
    default void audit(String jsonLine) {
        info(jsonLine);
    }

    /** Logs to {@code java.util.logging}: logger {@code dev.snowid.client}, audit lines to {@code dev.snowid.client.audit}. */
    static ClientLog javaUtilLogging() {
        Logger logger = Logger.getLogger("dev.snowid.client");
        Logger audit = Logger.getLogger("dev.snowid.client.audit");
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

            @Override
            public void audit(String jsonLine) {
                audit.log(Level.INFO, jsonLine);
            }
        };
    }
}
