package dev.snowid.lease;

import dev.snowid.IdUnavailableException;

/**
 * The acquisition's request id was first sent by another holder ({@link RequestClaim}): it
 * answers that holder only, so this acquisition gets nothing, and was granted nothing. A new
 * acquisition draws a fresh id ({@link AcquisitionRequest#drawId()}).
 */
public final class RequestIdConflictException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    public RequestIdConflictException(String message, long retryAfterMillis) {
        super(message, retryAfterMillis);
    }
}
