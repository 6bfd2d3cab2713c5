package dev.snowid.lambda;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the API answers, before it is written in the proxy response format of the event. */
record ApiResponse(int status, Map<String, String> headers, String body) {

    static ApiResponse json(int status, String json) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        // IDs are unique per response: no cache may hand one out twice.
        headers.put("Cache-Control", "no-store");
        return new ApiResponse(status, headers, json);
    }

    static ApiResponse noContent() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Cache-Control", "no-store");
        return new ApiResponse(204, headers, "");
    }

    static ApiResponse error(int status, String code, String message, Map<String, String> extraHeaders) {
        ApiResponse response = json(status, new JsonBuilder().field("error", code).field("message", message).end());
        response.headers().putAll(extraHeaders);
        return response;
    }

    static ApiResponse error(ApiError error) {
        return error(error.status(), error.code(), error.getMessage(), error.headers());
    }
}
