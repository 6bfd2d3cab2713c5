package dev.snowid.protocol.json;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One JSON value as {@link JsonReader} read it. The accessors answer empty for a value of another
 * kind, so a reader of an event or a body says what it wants and decides what a mismatch means.
 * The kinds below are all there are (the constructor is this package's).
 */
public abstract class JsonValue {

    private final Object content;

    JsonValue(Object content) {
        this.content = content;
    }

    /** Members (RFC 8259's word) in the order written; the reader refuses a repeated name, so none was dropped. */
    public static final class JsonObject extends JsonValue {
        JsonObject(Map<String, JsonValue> members) {
            super(members);
        }
    }

    public static final class JsonArray extends JsonValue {
        JsonArray(List<JsonValue> elements) {
            super(elements);
        }
    }

    public static final class JsonString extends JsonValue {
        JsonString(String text) {
            super(text);
        }
    }

    /** The number exactly as written ({@code 1}, {@code -0}, {@code 1.0}, {@code 1e3}): nothing rounded it. */
    public static final class JsonNumber extends JsonValue {
        JsonNumber(String literal) {
            super(literal);
        }
    }

    public static final class JsonBoolean extends JsonValue {
        JsonBoolean(boolean value) {
            super(value);
        }
    }

    public static final class JsonNull extends JsonValue {
        JsonNull() {
            super("null");
        }
    }

    /** The named field of an object (possibly JSON null); empty when absent or when this is no object. */
    public Optional<JsonValue> field(String name) {
        // No lambda: the agent's start-up path bootstraps none (see dev.snowid.agent's package-info).
        return this instanceof JsonObject ? Optional.ofNullable(fields().get().get(name)) : Optional.empty();
    }

    @SuppressWarnings("unchecked")
    public Optional<Map<String, JsonValue>> fields() {
        return this instanceof JsonObject ? Optional.of((Map<String, JsonValue>) content) : Optional.empty();
    }

    @SuppressWarnings("unchecked")
    public Optional<List<JsonValue>> items() {
        return this instanceof JsonArray ? Optional.of((List<JsonValue>) content) : Optional.empty();
    }

    public Optional<String> string() {
        return this instanceof JsonString ? Optional.of((String) content) : Optional.empty();
    }

    /** The number's literal text, for callers that must know how it was written. */
    public Optional<String> number() {
        return this instanceof JsonNumber ? Optional.of((String) content) : Optional.empty();
    }

    public Optional<Boolean> bool() {
        return this instanceof JsonBoolean ? Optional.of((Boolean) content) : Optional.empty();
    }

    public boolean isNull() {
        return this instanceof JsonNull;
    }

    @Override
    public boolean equals(Object other) {
        return other != null && other.getClass() == getClass() && content.equals(((JsonValue) other).content);
    }

    @Override
    public int hashCode() {
        return Objects.hash(getClass().getSimpleName(), content);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + content + "]";
    }
}
