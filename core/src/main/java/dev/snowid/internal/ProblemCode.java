package dev.snowid.internal;

/**
 * A stable code for what snowid tells a person: an error the lease API answers
 * ({@code dev.snowid.protocol.ErrorCode}) or a warning a front end logs ({@link WarningCode}).
 * Each has one entry in {@code docs/troubleshooting.md}; a test holds the page to both enums.
 *
 * <p>A line carries its code at the start of its message, {@code [unknown_setting] environment
 * variable …}: the same in every front end whatever the logger puts before it (the agent's
 * {@code [snowid] WARNING:}, a Spring Boot or java.util.logging line, the function's JSON
 * {@code message}), where it is seen first on a long line and found with one grep.
 */
public interface ProblemCode {

    /** Lower-case words joined by {@code _}, e.g. {@code no_free_slot}: the same in a log line, on the wire and in the docs. */
    String code();

    /** {@code message} as a line that carries this code says it: {@code [code] message}. */
    default String tag(String message) {
        return "[" + code() + "] " + message;
    }

    /** The code a {@linkplain #tag tagged} message starts with; null when it starts with none. */
    static String codeOf(String message) {
        if (message == null || !message.startsWith("[")) {
            return null;
        }
        int end = message.indexOf("] ");
        String code = end < 0 ? "" : message.substring(1, end);
        return code.matches("[a-z][a-z0-9]*(_[a-z0-9]+)*") ? code : null;
    }
}
