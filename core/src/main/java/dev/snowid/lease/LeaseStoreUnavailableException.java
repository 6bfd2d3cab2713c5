package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/** The lease store did not answer, answered with an error, or throttled past our retries. HTTP 503. */
public final class LeaseStoreUnavailableException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public LeaseStoreUnavailableException(String message, long retryAfterMillis, Throwable cause) {
        super(message, retryAfterMillis, cause);
    }
}
