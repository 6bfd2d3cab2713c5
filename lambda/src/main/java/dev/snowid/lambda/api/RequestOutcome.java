package dev.snowid.lambda.api;

import dev.snowid.Slot;

/**
 * What one request came to, for its log line and metrics: built once, with its answer, by
 * {@link SnowidApi#answer(byte[], String)}. (What the request did with leases is counted apart,
 * as it happens: {@code LeaseActivity}.)
 *
 * @param requestId the runtime's id of the invocation, else the event's; null if neither is known
 * @param method    the HTTP method; null when the event was unreadable
 * @param route     the route matched; {@link Route#UNMATCHED} when none (or the event was unreadable)
 * @param status    the HTTP status answered
 * @param idsIssued the IDs in the answer
 * @param slot      the slot this environment issues from after the request; null if none
 * @param error     the error code answered; null for a success
 * @param failure   our own failure behind a 500 or a 503, for the log only; null otherwise
 */
public record RequestOutcome(String requestId, String method, Route route, int status, int idsIssued, Slot slot, String error,
        Throwable failure) {
}
