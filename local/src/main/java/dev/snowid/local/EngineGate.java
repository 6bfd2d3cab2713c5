package dev.snowid.local;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.snowid.lambda.json.JsonWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * Stands in front of the handler while the runner's own engine must not be used (it is
 * restarting, or its table lost rows): the routes that touch the lease table, {@code /ids} and
 * {@code /leases…}, answer 503 {@code store_unavailable} with the reason and a
 * {@code Retry-After}; decoding an ID and {@code /health} still reach the handler.
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
        if (now.serving() || !touchesTheTable(exchange.getRequestURI().getRawPath())) {
            next.handle(exchange);
            return;
        }
        try (exchange) {
            byte[] body = new JsonWriter().field("error", "store_unavailable").field("message", now.reason()).end()
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            exchange.getResponseHeaders().set("Retry-After", Long.toString(now.retryAfterSeconds(System.currentTimeMillis())));
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(503, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }

    /** The routes that read or write the lease table: issuing IDs and the lease API. */
    static boolean touchesTheTable(String path) {
        return path != null && (path.equals("/ids") || isLeaseRoute(path));
    }

    /** The lease API: every request writes, or tries to write, a lease row for another process. */
    static boolean isLeaseRoute(String path) {
        return path != null && (path.equals("/leases")
                || path.startsWith("/leases/") && path.indexOf('/', "/leases/".length()) < 0);
    }
}
