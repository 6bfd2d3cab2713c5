package dev.snowid.lambda.telemetry;

import java.util.List;

/**
 * The parts of the slot pool whose occupancy is measured: the values of {@link Dimension#PART},
 * named as the lease API's slot map names them. Split ({@code SNOWID_AGENT_SLOTS} set, as the
 * template does), the function's environments lease from one part and {@code POST /leases}
 * grants from the other, and either can fill up on its own; unsplit, both share the pool. The
 * template's checks ask for an occupancy alarm on each part a deployment has.
 */
public enum PoolPart {

    /** The whole pool, when the function and the agents share it. */
    SHARED("shared"),
    /** The slots the function's environments lease from. */
    FUNCTION("function"),
    /** The slots {@code POST /leases} grants. */
    AGENTS("agents");

    private final String value;

    PoolPart(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    /** The parts a deployment has: split or shared. */
    public static List<PoolPart> of(boolean split) {
        return split ? List.of(FUNCTION, AGENTS) : List.of(SHARED);
    }
}
