package dev.snowid.local;

import com.sun.net.httpserver.HttpExchange;
import dev.snowid.lambda.http.ApiResponse;
import dev.snowid.local.http.Refusal;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The answers the runner gives itself, before the handler: JSON {@code {"error","message"}} as the function's. */
final class LocalAnswers {

    private LocalAnswers() {
    }

    /** Answers {@code status} with the error and message, and closes the exchange; {@code retryAfterSeconds} < 0: no Retry-After. */
    static void refuse(HttpExchange exchange, int status, String error, String message, long retryAfterSeconds) throws IOException {
        Map<String, String> headers = retryAfterSeconds >= 0 ? Map.of("Retry-After", Long.toString(retryAfterSeconds)) : Map.of();
        send(exchange, status, headers, Refusal.body(error, message));
    }

    /** Answers as the function would have (its refusal of the request's credentials), and closes the exchange. */
    static void answer(HttpExchange exchange, ApiResponse response) throws IOException {
        send(exchange, response.status(), response.headers(), response.body().getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, int status, Map<String, String> headers, byte[] body) throws IOException {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.getResponseHeaders().set("Cache-Control", "no-store");
            headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
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
