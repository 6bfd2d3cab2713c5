package dev.snowid.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.snowid.lambda.api.Route;
import java.io.IOException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Stands in front of the handler while the runner's own engine must not be used (it is
 * restarting, or its table lost rows). It fails closed: only the routes that need no lease,
 * {@code GET /ids/{id}} (decoding) and {@code /health}, reach the handler; every other request
 * answers 503 {@code store_unavailable} with the reason and a {@code Retry-After}. It decides
 * on the decoded path, as the handler routes it, so {@code /%69ds} is held back like {@code /ids}.
 */
final class EngineGate implements HttpHandler {

    private final HttpHandler next;
    private final Supplier<EngineStatus> status;

    EngineGate(HttpHandler next, Supplier<EngineStatus> status) {
        this.next = next;
        this.status = status;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        EngineStatus now = status.get();
        if (now.serving() || needsNoLease(RequestTarget.decodedPath(exchange.getRequestURI()))) {
            next.handle(exchange);
            return;
        }
        LocalAnswers.refuse(exchange, 503, "store_unavailable", now.reason(), now.retryAfterSeconds(System.currentTimeMillis()));
    }

    /** Decoding an ID and the health check: the only routes answered without the lease table. */
    static boolean needsNoLease(Optional<String> decodedPath) {
        return decodedPath.map(Route::of).filter(route -> route == Route.DECODE || route == Route.HEALTH).isPresent();
    }
}
