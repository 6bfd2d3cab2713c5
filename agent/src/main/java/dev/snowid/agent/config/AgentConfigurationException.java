package dev.snowid.agent.config;

/**
 * The agent's configuration is wrong: the message names the property (and its environment
 * variable), the value given and what is allowed. Thrown from premain, it stops the JVM before
 * the application issues a single ID.
 */
public final class AgentConfigurationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public AgentConfigurationException(String message) {
        super(message);
    }

    public AgentConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
