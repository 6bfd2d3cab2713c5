package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/** Every slot of the pool is held. {@link #retryAfterMillis()} is the time until the earliest expiry. HTTP 503. */
public final class NoFreeSlotException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public NoFreeSlotException(String message, long retryAfterMillis) {
        super(message, retryAfterMillis);
    }
}
