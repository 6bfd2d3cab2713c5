package dev.snowid.lambda.http;

import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.LeaseFields;
import dev.snowid.protocol.json.JsonWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/** What the API answers, before it is written in the proxy response format of the event. */
public record ApiResponse(int status, Map<String, String> headers, String body) {

    public static ApiResponse json(int status, String json) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        // IDs are unique per response: no cache may hand one out twice.
        headers.put("Cache-Control", "no-store");
        return new ApiResponse(status, headers, json);
    }

    public static ApiResponse noContent() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Cache-Control", "no-store");
        return new ApiResponse(204, headers, "");
    }

    /** {@code {"error":"<code>","message":"<what was wrong and what is allowed>"}} with the code's status. */
    public static ApiResponse error(ErrorCode code, String message, Map<String, String> extraHeaders) {
        ApiResponse response = json(code.status(),
                new JsonWriter().field(LeaseFields.ERROR, code.code()).field(LeaseFields.MESSAGE, message).end());
        response.headers().putAll(extraHeaders);
        return response;
    }

    /**
     * Our own fault: a 500 that says nothing of it but where the operator finds it. The one home of
     * that answer, for faults inside the API and around it (reading the event).
     */
    public static ApiResponse internalError(String requestId) {
        return error(ErrorCode.INTERNAL, "internal error; it is logged under request id " + (requestId == null ? "(none)" : requestId),
                Map.of());
    }

    public static ApiResponse error(ApiError error) {
        return error(error.errorCode(), error.getMessage(), error.headers());
    }
}
