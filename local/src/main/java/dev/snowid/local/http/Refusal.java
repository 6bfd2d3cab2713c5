package dev.snowid.local.http;

import dev.snowid.protocol.json.JsonWriter;
import java.nio.charset.StandardCharsets;

/**
 * A request the server turns down before any handler sees it (it cannot be read as HTTP, or not
 * in time): a 4xx with the runner's JSON error, {@code {"error","message"}}, as every answer of
 * the runner. No stack trace: it is an answer, not a fault.
 */
public final class Refusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String error;

    Refusal(int status, String error, String message) {
        super(message, null, false, false);
        this.status = status;
        this.error = error;
    }

    /** 400 {@code invalid_request}: the bytes are not a request this server can read. */
    static Refusal invalid(String message) {
        return new Refusal(400, "invalid_request", message);
    }

    int status() {
        return status;
    }

    String error() {
        return error;
    }

    /** The JSON body of the runner's own answers, {@code {"error":…,"message":…}}. */
    public static byte[] body(String error, String message) {
        return new JsonWriter().field("error", error).field("message", message).end().getBytes(StandardCharsets.UTF_8);
    }
}
