package dev.snowid.client;

import dev.snowid.lease.LeaseStoreUnavailableException;

/**
 * The lease API left open whether it did what was asked: no answer arrived (a reset, a timeout, a
 * refused connection), the answer could not be read, or it was a 5xx that says nothing of the
 * request ({@link dev.snowid.protocol.LeaseRoute#leavesOpen}). An acquisition is then asked again
 * with the same request id, so that a slot granted to a lost answer is answered again, never
 * stranded while a second one is taken.
 */
final class UnsettledRequestException extends LeaseStoreUnavailableException {

    private static final long serialVersionUID = 1L;

    UnsettledRequestException(String message, long retryAfterMillis, Throwable cause) {
        super(message, retryAfterMillis, cause);
    }
}
