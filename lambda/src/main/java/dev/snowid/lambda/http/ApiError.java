package dev.snowid.lambda.http;

import dev.snowid.protocol.BearerChallenge;
import dev.snowid.protocol.ErrorCode;
import java.util.Map;

/**
 * A request the API turns down on purpose: carries the HTTP status, the error code and a
 * message saying what was wrong and what is allowed. Never used for our own failures (500).
 */
public final class ApiError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final transient Map<String, String> headers;

    public ApiError(ErrorCode code, String message) {
        this(code, message, Map.of());
    }

    public ApiError(ErrorCode code, String message, Map<String, String> headers) {
        super(message, null, false, false); // no stack trace: it is an answer, not a fault
        this.code = code;
        this.headers = headers;
    }

    /** A 400: {@code code} must be one of the 400 codes. */
    public static ApiError badRequest(ErrorCode code, String message) {
        if (code.status() != 400) {
            throw new IllegalArgumentException(code + " is not a 400 code");
        }
        return new ApiError(code, message);
    }

    public static ApiError notFound(String message) {
        return new ApiError(ErrorCode.NOT_FOUND, message);
    }

    public static ApiError unauthorized(String message) {
        // RFC 6750: say which scheme the route wants; the challenge repeats the message for a client that cannot read the body.
        return new ApiError(ErrorCode.UNAUTHORIZED, message, Map.of(BearerChallenge.HEADER, BearerChallenge.of(message)));
    }

    /** A 403: the caller is who it says, and is not among those admitted. */
    public static ApiError forbidden(String message) {
        return new ApiError(ErrorCode.FORBIDDEN, message);
    }

    int status() {
        return code.status();
    }

    public String code() {
        return code.code();
    }

    ErrorCode errorCode() {
        return code;
    }

    Map<String, String> headers() {
        return headers;
    }
}
