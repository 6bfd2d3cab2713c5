package dev.snowid.lambda;

import dev.snowid.client.wire.ErrorCode;
import java.io.IOException;
import java.util.Map;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonNodeParser;
import software.amazon.awssdk.thirdparty.jackson.core.JsonFactory;
import software.amazon.awssdk.thirdparty.jackson.core.JsonParser;
import software.amazon.awssdk.thirdparty.jackson.core.JsonToken;
import software.amazon.awssdk.thirdparty.jackson.core.StreamReadFeature;

/**
 * A request body that must be one JSON object. Stricter than the SDK's parser alone, which
 * takes the last of duplicate keys and ignores anything after the first value: here both are
 * the client's mistake, so {@code {"fence":1,"fence":2}} or {@code {...} junk} get a 400.
 */
final class JsonBody {

    private static final JsonFactory STRICT = (JsonFactory) JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final JsonNodeParser PARSER = JsonNodeParser.builder().jsonFactory(STRICT).removeErrorLocations(true).build();

    private JsonBody() {
    }

    static Map<String, JsonNode> object(byte[] body, String expected) {
        if (!isSingleValue(body, expected)) {
            throw ApiError.badRequest(ErrorCode.INVALID_JSON, "the body holds more than one JSON value; expected " + expected);
        }
        JsonNode node = PARSER.parse(body);
        if (node == null || !node.isObject()) {
            throw ApiError.badRequest(ErrorCode.INVALID_JSON, "the body is not a JSON object; expected " + expected);
        }
        return node.asObject();
    }

    private static boolean isSingleValue(byte[] body, String expected) {
        try (JsonParser parser = STRICT.createParser(body)) {
            int values = 0;
            int depth = 0;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (depth == 0) {
                    values++;
                }
                if (token.isStructStart()) {
                    depth++;
                } else if (token.isStructEnd()) {
                    depth--;
                }
            }
            if (values == 0) {
                throw ApiError.badRequest(ErrorCode.INVALID_JSON, "the body is empty; expected " + expected);
            }
            return values == 1;
        } catch (IOException e) {
            throw ApiError.badRequest(ErrorCode.INVALID_JSON, "the body is not valid JSON (" + firstLine(e.getMessage())
                    + "); expected " + expected);
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        String line = newline < 0 ? message : message.substring(0, newline);
        return line.length() <= 160 ? line : line.substring(0, 160) + "…";
    }
}
