package dev.snowid.agent.runtime;

/**
 * The agent could not start for a reason its configuration does not decide: the lease pool is
 * full, this machine's clock is too far off. The message says what happened and what changes it.
 * Thrown from premain, it stops the JVM before the application issues a single ID.
 */
public final class AgentStartException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AgentStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
