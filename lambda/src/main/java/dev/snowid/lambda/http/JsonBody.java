package dev.snowid.lambda.http;

import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.MalformedJson;
import java.util.Map;

/**
 * A request body that must be one JSON object. Stricter than JSON parsers usually are: a
 * repeated key ({@code {"fence":1,"fence":2}}) or anything after the object ({@code {...} junk})
 * is the client's mistake and gets a 400, as does a body that is not UTF-8.
 */
public final class JsonBody {

    /**
     * A lease request body is a small flat object (its longest field, holder, is 200 characters):
     * these limits leave room for that and refuse anything that would only cost time.
     */
    static final JsonReader.Limits LIMITS = new JsonReader.Limits(16, 16_384, 100, 16_384);

    private static final JsonReader READER = new JsonReader(LIMITS);

    private JsonBody() {
    }

    public static Map<String, JsonValue> object(byte[] body, String expected) {
        JsonValue value;
        try {
            value = READER.read(body);
        } catch (MalformedJson e) {
            throw ApiError.badRequest(ErrorCode.INVALID_JSON, "the body " + e.what() + "; expected " + expected);
        }
        return value.fields().orElseThrow(
                () -> ApiError.badRequest(ErrorCode.INVALID_JSON, "the body is not a JSON object; expected " + expected));
    }
}
