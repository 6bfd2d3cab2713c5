package dev.snowid.lambda.telemetry;

/**
 * The parts of the slot pool whose occupancy is measured: the values of {@link Dimension#PART}.
 * Today the function and the agents lease from one pool; a pool split into parts (one for the
 * function's environments, one for agents) adds a value here, and the template's checks then ask
 * for an occupancy alarm on each.
 */
public enum PoolPart {

    /** The whole pool, shared by the function's environments and the agents. */
    ALL("all");

    private final String value;

    PoolPart(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }
}
