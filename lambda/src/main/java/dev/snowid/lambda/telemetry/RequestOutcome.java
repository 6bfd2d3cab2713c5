package dev.snowid.lambda.telemetry;

import dev.snowid.Slot;
import dev.snowid.lambda.api.Route;

/** What one request did, for its log line and metrics: filled in while it is handled. */
public final class RequestOutcome {

    public Route route = Route.UNMATCHED;
    public String method;
    public int idsIssued;
    /** The slot this environment issues from after the request, if any. */
    public Slot slot;
    /** The error code answered, if any. */
    public String error;
    /** Our own failure behind a 500 or a 503, for the log only. */
    public Throwable failure;
    /** Acquisitions, renewals, losses and occupancy seen while it was handled. */
    public LeaseActivity leases = new LeaseActivity();
}
