package dev.snowid.lambda.json;

import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.MalformedJson;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * JSON in tests (handler answers, proxy responses, log lines), read with the function's own
 * reader; text that is not JSON, or a field that is missing or of another kind, fails the test.
 */
public final class TestJson {

    private static final JsonReader READER = new JsonReader(new JsonReader.Limits(64, 16 << 20, 1_000, 16 << 20));

    private TestJson() {
    }

    public static JsonValue parse(String text) {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    public static JsonValue parse(byte[] utf8) {
        try {
            return READER.read(utf8);
        } catch (MalformedJson e) {
            throw new AssertionError("not JSON: the text " + e.what() + ": " + new String(utf8, StandardCharsets.UTF_8));
        }
    }

    /** The string field {@code name} of an object. */
    public static String text(JsonValue object, String name) {
        return field(object, name).string().orElseThrow(() -> new AssertionError(name + " is no string in " + object));
    }

    /** The literal of the number field {@code name} of an object. */
    public static String number(JsonValue object, String name) {
        return field(object, name).number().orElseThrow(() -> new AssertionError(name + " is no number in " + object));
    }

    /** The items of the array field {@code name} of an object. */
    public static List<JsonValue> items(JsonValue object, String name) {
        return field(object, name).items().orElseThrow(() -> new AssertionError(name + " is no array in " + object));
    }

    /** A value that must be a string (an ID in an array, say). */
    public static String text(JsonValue value) {
        return value.string().orElseThrow(() -> new AssertionError("no string: " + value));
    }

    private static JsonValue field(JsonValue object, String name) {
        return object.field(name).orElseThrow(() -> new AssertionError("no field " + name + " in " + object));
    }
}
