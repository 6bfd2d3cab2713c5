package dev.snowid.lambda;

import dev.snowid.Slot;
import dev.snowid.lambda.telemetry.LeaseActivity;

/** What one request did, for its log line and metrics: filled in while it is handled. */
final class RequestOutcome {

    Route route = Route.UNMATCHED;
    String method;
    int idsIssued;
    /** The slot this environment issues from after the request, if any. */
    Slot slot;
    /** The error code answered, if any. */
    String error;
    /** Our own failure behind a 500 or a 503, for the log only. */
    Throwable failure;
    /** Acquisitions, renewals, losses and occupancy seen while it was handled. */
    LeaseActivity leases = new LeaseActivity();
}
