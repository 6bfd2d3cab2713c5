package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/**
 * Another acquisition with the same request id, by the same holder, took this one's place
 * ({@link RequestClaim}) before this one could record its grant: the slot this one took is handed
 * back unanswered, and sending the id again is answered with the other's lease.
 */
public final class AcquisitionSupersededException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public AcquisitionSupersededException(String message, long retryAfterMillis) {
        super(message, retryAfterMillis);
    }
}
