package dev.snowid.local;

import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.settings.FunctionRole;

/**
 * The two functions the template deploys, played locally: each lane has its own handler (its
 * own lock, as its own Lambda function) and its own threads and queue, so a flood of
 * {@code /ids} never queues an agent's renewal. Chosen as the template's API chooses the
 * function: by the route API Gateway would match ({@link Endpoint#routeKeyOf}); what matches none
 * goes to the ids function, as {@code $default} does.
 */
enum RouteLane {
    /** {@code /ids}, {@code /ids/{id}}, {@code /health} and everything else: the ids function. */
    IDS("ids"),
    /** {@code /leases} and {@code /leases/{slot}}: the lease function, which holds no slot of its own. */
    LEASES("leases");

    private final String role;

    RouteLane(String role) {
        this.role = role;
    }

    /** The lane of a request: the function of the route it matches, by its method and raw path as sent. */
    static RouteLane of(String method, String rawPath) {
        return Endpoint.ofRouteKey(Endpoint.routeKeyOf(method, rawPath)).map(Endpoint::route)
                .filter(route -> route.role() == FunctionRole.LEASES).isPresent() ? LEASES : IDS;
    }

    /** The {@code SNOWID_ROLE} of this lane's handler. */
    String role() {
        return role;
    }
}
