package dev.snowid.client;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where a {@link SnowidClient} says what happened to its lease: an audit line for every grant,
 * renewal, release and loss (one JSON object per line; below INFO unless the builder's
 * {@code auditAtInfo(true)}), and in words whatever needs a person's attention (the lease at
 * start-up, failures, refusals, recoveries). By default {@code java.util.logging} (loggers
 * {@code dev.snowid.client} and {@code dev.snowid.client.audit}), which every logging framework can
 * bridge; the agent prints to stderr instead.
 */
public interface ClientLog {

    void info(String message);

    void warn(String message);

    void error(String message);

    /**
     * One audit line ({@link dev.snowid.protocol.LeaseAudit}) raised to INFO by the builder's
     * {@code auditAtInfo(true)}: a flat JSON object with the lease's slot, fence, holder, floor,
     * expiry and the caller. By default logged like {@link #info(String)}.
     */
    default void audit(String jsonLine) {
        info(jsonLine);
    }

    /**
     * One audit line at its own level, below INFO (the builder's default): an app's log shows a
     * lease's every renewal only when asked to. By default dropped: this interface has no lower level.
     */
    default void auditBelowInfo(String jsonLine) {
    }

    /**
     * Logs to {@code java.util.logging}: logger {@code dev.snowid.client}, audit lines to
     * {@code dev.snowid.client.audit}, at INFO or, by default, at FINE (DEBUG through SLF4J).
     */
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

            @Override
            public void auditBelowInfo(String jsonLine) {
                audit.log(Level.FINE, jsonLine);
            }
        };
    }
}
