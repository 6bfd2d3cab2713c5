package dev.snowid.region;

import dev.snowid.IdUnavailableException;

/**
 * This stack may not lease: its block is not confirmed as claimed for its region (another claimant
 * holds it, it was released, or a new claim waits for the registry). HTTP 503
 * {@code block_not_claimed}; the message, for the operator's log, names both claims.
 */
public final class BlockNotClaimedException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public BlockNotClaimedException(String message, long retryAfterMillis, Throwable cause) {
        super(message, retryAfterMillis, cause);
    }
}
