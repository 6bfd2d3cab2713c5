package dev.snowid.lambda.settings;

/**
 * Which routes this function answers ({@value FunctionSettings#ROLE}). The template deploys the
 * one artifact twice: an {@code ids} function for the public routes and a {@code leases}
 * function for the lease routes, each with its own reserved concurrency, so a flood of public
 * requests cannot throttle the agents' renewals. {@code all} answers every route (one function).
 */
public enum FunctionRole {
    /** Every route: a single function, tests, benchmarks. */
    ALL,
    /** {@code /ids}, {@code /ids/{id}}, {@code /health} and anything else; the lease routes are refused. */
    IDS,
    /** {@code /leases} and {@code /leases/{slot}} only; never leases a slot of its own. */
    LEASES;

    /** Whether the public routes ({@code /ids}, {@code /ids/{id}}, {@code /health}) are answered here. */
    public boolean servesPublicRoutes() {
        return this != LEASES;
    }

    /** Whether the lease routes are answered here. */
    public boolean servesLeaseRoutes() {
        return this != IDS;
    }

    /** What may be set, in words. */
    static final String ALLOWED = "'all' (every route), 'ids' (the public routes; the lease routes refused) or 'leases' (the lease"
            + " routes only)";

    /** The setting's value, e.g. {@code leases}. */
    public String value() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The role {@code text} names, in any case; an {@link IllegalArgumentException} says what is allowed. */
    static FunctionRole parse(String text) {
        for (FunctionRole role : values()) {
            if (role.value().equals(text.toLowerCase(java.util.Locale.ROOT))) {
                return role;
            }
        }
        throw new IllegalArgumentException("'" + dev.snowid.protocol.EchoedInput.shortened(text) + "' is not a role; allowed " + ALLOWED);
    }
}
