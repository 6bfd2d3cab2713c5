package dev.snowid.local;

import dev.snowid.lambda.api.Route;
import dev.snowid.lambda.settings.FunctionRole;
import java.util.Optional;

/**
 * The two functions the template deploys, played locally: each lane has its own handler (its
 * own lock, as its own Lambda function) and its own threads and queue, so a flood of
 * {@code /ids} never queues an agent's renewal. Chosen on the decoded path, as the handler
 * routes it.
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

    /**
     * The lane of a decoded path: the function the handler's route table gives its route; an
     * undecodable path goes to the ids lane, whose handler answers 400.
     */
    static RouteLane of(Optional<String> decodedPath) {
        return decodedPath.map(Route::of).filter(route -> route.role() == FunctionRole.LEASES).isPresent() ? LEASES : IDS;
    }

    /** The {@code SNOWID_ROLE} of this lane's handler. */
    String role() {
        return role;
    }
}
