package dev.snowid.local;

import com.sun.net.httpserver.HttpExchange;
import dev.snowid.lambda.json.JsonWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The answers the runner gives itself, before the handler: JSON {@code {"error","message"}} as the function's. */
final class LocalAnswers {

    private LocalAnswers() {
    }

    /** Answers {@code status} with the error and message, and closes the exchange; {@code retryAfterSeconds} < 0: no Retry-After. */
    static void refuse(HttpExchange exchange, int status, String error, String message, long retryAfterSeconds) throws IOException {
        try (exchange) {
            byte[] body = new JsonWriter().field("error", error).field("message", message).end().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            if (retryAfterSeconds >= 0) {
                exchange.getResponseHeaders().set("Retry-After", Long.toString(retryAfterSeconds));
            }
            boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : body.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
        }
    }
}
