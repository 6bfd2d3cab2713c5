package dev.snowid.lambda.telemetry;

import dev.snowid.lambda.api.Route;

/**
 * The dimensions of the function's metrics. Every metric has {@link #SERVICE}, so that two
 * deployments in one account and namespace never mix their numbers; the others have a small,
 * fixed set of values (routes, error codes, {@link LeaseHolder}s, {@link PoolPart}s), which
 * keeps the number of CloudWatch metrics, and their cost, bounded.
 */
public enum Dimension {

    /** The deployment: {@code SNOWID_SERVICE} (the template sets the stack name). */
    SERVICE("Service"),
    /** The route template matched, e.g. {@code /ids/{id}}; {@code unmatched} for none. */
    ROUTE("Route"),
    /** The error code answered, e.g. {@code no_free_slot}. */
    ERROR_CODE("ErrorCode"),
    /** Whose lease: this function's own, or an agent's through the lease routes. */
    HOLDER("Holder"),
    /** Which part of the slot pool. */
    PART("Part");

    private final String key;

    Dimension(String key) {
        this.key = key;
    }

    /** The name CloudWatch shows, and the key of its value in an EMF record. */
    public String key() {
        return key;
    }
}
