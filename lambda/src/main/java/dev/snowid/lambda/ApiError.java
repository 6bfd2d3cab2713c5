package dev.snowid.lambda;

import java.util.Map;

/**
 * A request the API turns down on purpose: carries the HTTP status, the error code and a
 * message saying what was wrong and what is allowed. Never used for our own failures (500).
 */
final class ApiError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final transient Map<String, String> headers;

    ApiError(int status, String code, String message) {
        this(status, code, message, Map.of());
    }

    ApiError(int status, String code, String message, Map<String, String> headers) {
        super(message, null, false, false); // no stack trace: it is an answer, not a fault
        this.status = status;
        this.code = code;
        this.headers = headers;
    }

    static ApiError badRequest(String code, String message) {
        return new ApiError(400, code, message);
    }

    static ApiError notFound(String message) {
        return new ApiError(404, "not_found", message);
    }

    static ApiError unauthorized(String message) {
        // RFC 6750: say which scheme the route wants.
        return new ApiError(401, "unauthorized", message, Map.of("WWW-Authenticate", "Bearer realm=\"snowid-leases\""));
    }

    int status() {
        return status;
    }

    String code() {
        return code;
    }

    Map<String, String> headers() {
        return headers;
    }
}
