package dev.snowid.lambda.http;

import dev.snowid.protocol.json.JsonWriter;
import java.util.List;

/**
 * Writes an {@link ApiResponse} as the proxy integration's response JSON. Payload 2.0 and 1.0
 * read the same fields; 1.0 (REST APIs) also gets {@code multiValueHeaders}.
 */
public final class GatewayResponse {

    private GatewayResponse() {
    }

    public static String write(ApiResponse response, PayloadFormat format) {
        JsonWriter json = new JsonWriter(response.body().length() + 256);
        json.field("statusCode", response.status());
        json.stringMap("headers", response.headers());
        if (format == PayloadFormat.V1) {
            json.object("multiValueHeaders");
            response.headers().forEach((name, value) -> json.stringArray(name, List.of(value)));
            json.close();
        }
        json.field("body", response.body());
        json.field("isBase64Encoded", false);
        return json.end();
    }
}
