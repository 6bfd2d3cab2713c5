package dev.snowid.spring.autoconfigure.web;

import dev.snowid.InvalidIdException;
import dev.snowid.SnowflakeId;
import java.nio.charset.StandardCharsets;
import org.springframework.beans.TypeMismatchException;

/**
 * The 400 answer to a request whose {@link SnowflakeId} parameter is malformed, the same for MVC
 * and WebFlux: {@code {"status":400,"error":"invalid_id","message":"…"}}, the message saying
 * which parameter, what was wrong and what is allowed. Only failures to convert to a
 * {@link SnowflakeId} are answered here; every other exception goes on to Spring's own handling.
 */
final class InvalidIdAnswer {

    static final String ERROR = "invalid_id";

    private final String message;

    private InvalidIdAnswer(String message) {
        this.message = message;
    }

    /** The answer to {@code failure}, or null when it is not a malformed {@link SnowflakeId} parameter. */
    static InvalidIdAnswer to(Throwable failure) {
        TypeMismatchException mismatch = null;
        InvalidIdException invalid = null;
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof TypeMismatchException && ((TypeMismatchException) t).getRequiredType() == SnowflakeId.class) {
                mismatch = (TypeMismatchException) t;
            }
            if (t instanceof InvalidIdException) {
                invalid = (InvalidIdException) t;
            }
        }
        if (mismatch == null || invalid == null) {
            return null;
        }
        String name = mismatch.getPropertyName();
        return new InvalidIdAnswer((name != null ? "parameter '" + name + "': " : "") + invalid.getMessage());
    }

    String message() {
        return message;
    }

    byte[] json() {
        return ("{\"status\":400,\"error\":\"" + ERROR + "\",\"message\":" + quoted(message) + "}").getBytes(StandardCharsets.UTF_8);
    }

    private static String quoted(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }
}
