package dev.snowid.lambda.telemetry;

/** Whose lease a lease metric counts: the values of {@link Dimension#HOLDER}. */
public enum LeaseHolder {

    /** This execution environment's own lease, the one its {@code /ids} issue under. */
    FUNCTION("function"),
    /** Leases granted, renewed and released through the lease routes ({@code /leases}), for agents. */
    AGENTS("agents");

    private final String value;

    LeaseHolder(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }
}
