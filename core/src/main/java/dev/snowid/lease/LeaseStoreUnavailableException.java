package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/**
 * The lease store did not answer, answered with an error, or throttled past our retries. HTTP 503.
 * Not final: a holder may say more of why (the client: whether the request was settled).
 */
public class LeaseStoreUnavailableException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public LeaseStoreUnavailableException(String message, long retryAfterMillis, Throwable cause) {
        super(message, retryAfterMillis, cause);
    }
}
