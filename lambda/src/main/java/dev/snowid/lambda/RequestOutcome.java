package dev.snowid.lambda;

import dev.snowid.Slot;

/** What one request did, for its log line and metrics: filled in while it is handled. */
final class RequestOutcome {

    /** The route template matched, e.g. {@code /ids/{id}}; "unmatched" when none was. */
    String route = "unmatched";
    String method;
    int idsIssued;
    boolean leaseAcquired;
    /** The slot this environment issues from after the request, if any. */
    Slot slot;
    /** The error code answered, if any. */
    String error;
    /** Our own failure behind a 500, for the log only. */
    Throwable failure;
}
