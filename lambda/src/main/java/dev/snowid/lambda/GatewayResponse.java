package dev.snowid.lambda;

import java.util.Map;

/**
 * Writes an {@link ApiResponse} as the proxy integration's response JSON. Payload 2.0 and 1.0
 * read the same fields; 1.0 (REST APIs) also gets {@code multiValueHeaders}.
 */
final class GatewayResponse {

    private GatewayResponse() {
    }

    static String write(ApiResponse response, PayloadFormat format) {
        StringBuilder out = new StringBuilder(response.body().length() + 256);
        JsonBuilder json = new JsonBuilder(out);
        json.field("statusCode", response.status());
        json.rawField("headers", headers(response.headers(), false));
        if (format == PayloadFormat.V1) {
            json.rawField("multiValueHeaders", headers(response.headers(), true));
        }
        json.field("body", response.body());
        json.field("isBase64Encoded", false);
        return json.end();
    }

    private static String headers(Map<String, String> headers, boolean asLists) {
        StringBuilder out = new StringBuilder(64 * headers.size() + 2).append('{');
        boolean first = true;
        for (Map.Entry<String, String> header : headers.entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            JsonBuilder.string(out, header.getKey());
            out.append(':');
            if (asLists) {
                out.append('[');
            }
            JsonBuilder.string(out, header.getValue());
            if (asLists) {
                out.append(']');
            }
        }
        return out.append('}').toString();
    }
}
