package dev.snowid;

/**
 * No ID can be issued right now, and none was: the clock is behind, the lease has run out,
 * or no lease could be had. Callers turn it into "try again later" (HTTP 503), never into a
 * guess. {@link #retryAfterMillis()} says when trying again makes sense, where known.
 */
public class IdUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long retryAfterMillis;

    public IdUnavailableException(String message, long retryAfterMillis) {
        this(message, retryAfterMillis, null);
    }

    public IdUnavailableException(String message, long retryAfterMillis, Throwable cause) {
        super(message, cause);
        this.retryAfterMillis = retryAfterMillis;
    }

    /** How long to wait before trying again, in ms; at least 1. */
    public long retryAfterMillis() {
        return Math.max(1, retryAfterMillis);
    }
}
