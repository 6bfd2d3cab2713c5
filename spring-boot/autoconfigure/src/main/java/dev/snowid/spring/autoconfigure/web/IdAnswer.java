package dev.snowid.spring.autoconfigure.web;

import dev.snowid.IdUnavailableException;
import dev.snowid.InvalidIdException;
import dev.snowid.SnowflakeId;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.RetryAfter;
import dev.snowid.protocol.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import org.springframework.beans.TypeMismatchException;

/**
 * The answer to a request that failed over an ID, the same for MVC and WebFlux, as JSON
 * {@code {"status":…,"error":"…","message":"…"}}:
 * <ul>
 *   <li>400 {@code invalid_id}: a malformed {@link SnowflakeId} parameter; the message says which
 *       parameter, what was wrong and what is allowed;</li>
 *   <li>503 with {@code Retry-After}: no ID could be issued (no lease window in force); the error
 *       is the lease API's code for why, the message its fixed public text (never the lease API's
 *       address or the client's own words, which are for the logs).</li>
 * </ul>
 * Any other failure is left to Spring's own handling.
 */
final class IdAnswer {

    static final String INVALID_ID = "invalid_id";

    private final int status;
    private final String error;
    private final String message;
    private final long retryAfterSeconds;

    private IdAnswer(int status, String error, String message, long retryAfterSeconds) {
        this.status = status;
        this.error = error;
        this.message = message;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The answer to {@code failure}, or null when it is not about an ID. */
    static IdAnswer to(Throwable failure) {
        TypeMismatchException mismatch = null;
        InvalidIdException invalid = null;
        IdUnavailableException unavailable = null;
        for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof TypeMismatchException && ((TypeMismatchException) t).getRequiredType() == SnowflakeId.class) {
                mismatch = (TypeMismatchException) t;
            }
            if (t instanceof InvalidIdException) {
                invalid = (InvalidIdException) t;
            }
            if (t instanceof IdUnavailableException && unavailable == null) {
                unavailable = (IdUnavailableException) t;
            }
        }
        if (mismatch != null && invalid != null) {
            String name = mismatch.getPropertyName();
            return new IdAnswer(400, INVALID_ID, (name != null ? "parameter '" + name + "': " : "") + invalid.getMessage(), 0);
        }
        if (unavailable != null) {
            ErrorCode code = ErrorCode.of(unavailable);
            return new IdAnswer(503, code.code(), code.publicMessage() + "; no ID was issued, try again later",
                    RetryAfter.seconds(unavailable.retryAfterMillis()));
        }
        return null;
    }

    int status() {
        return status;
    }

    String message() {
        return message;
    }

    /** For a 503: the Retry-After header's seconds; 0 for a 400. */
    long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    byte[] json() {
        return new JsonWriter().field("status", (long) status).field("error", error).field("message", message).end()
                .getBytes(StandardCharsets.UTF_8);
    }
}
