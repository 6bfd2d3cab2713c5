package dev.snowid.lambda.json;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JSON value as {@link JsonReader} read it. The accessors answer empty for a value of another
 * kind, so a reader of an event or a body says what it wants and decides what a mismatch means.
 */
public sealed interface JsonValue {

    /** Members (RFC 8259's word) in the order written; the reader refuses a repeated name, so none was dropped. */
    record JsonObject(Map<String, JsonValue> members) implements JsonValue {
    }

    record JsonArray(List<JsonValue> elements) implements JsonValue {
    }

    record JsonString(String text) implements JsonValue {
    }

    /** The number exactly as written ({@code 1}, {@code -0}, {@code 1.0}, {@code 1e3}): nothing rounded it. */
    record JsonNumber(String literal) implements JsonValue {
    }

    record JsonBoolean(boolean value) implements JsonValue {
    }

    record JsonNull() implements JsonValue {
    }

    /** The named field of an object (possibly JSON null); empty when absent or when this is no object. */
    default Optional<JsonValue> field(String name) {
        return fields().map(fields -> fields.get(name));
    }

    default Optional<Map<String, JsonValue>> fields() {
        return this instanceof JsonObject object ? Optional.of(object.members()) : Optional.empty();
    }

    default Optional<List<JsonValue>> items() {
        return this instanceof JsonArray array ? Optional.of(array.elements()) : Optional.empty();
    }

    default Optional<String> string() {
        return this instanceof JsonString string ? Optional.of(string.text()) : Optional.empty();
    }

    /** The number's literal text, for callers that must know how it was written. */
    default Optional<String> number() {
        return this instanceof JsonNumber number ? Optional.of(number.literal()) : Optional.empty();
    }

    default Optional<Boolean> bool() {
        return this instanceof JsonBoolean bool ? Optional.of(bool.value()) : Optional.empty();
    }

    default boolean isNull() {
        return this instanceof JsonNull;
    }
}
