package dev.snowid;

/** The generator's lease window has ended (or was closed): it issues nothing more until it gets a new one. */
public final class LeaseExpiredException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public LeaseExpiredException(String message) {
        super(message, 1);
    }

    public LeaseExpiredException(String message, long retryAfterMillis, Throwable cause) {
        super(message, retryAfterMillis, cause);
    }
}
