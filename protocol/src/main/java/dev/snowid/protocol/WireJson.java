package dev.snowid.protocol;

import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.JsonWriter;
import dev.snowid.protocol.json.MalformedJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lease API's messages as maps, read and written through the one JSON home
 * ({@link dev.snowid.protocol.json}). Their shapes are fixed and flat: an object whose values are
 * strings, whole numbers, booleans or null; for the slot map and {@code /ids} also lists of such
 * flat objects or of such values. Anything else is refused, never guessed at.
 */
final class WireJson {

    /** Object, list, object: the deepest shape; a slot map of every slot is well under the size. */
    private static final JsonReader READER = new JsonReader(new JsonReader.Limits(3, 1 << 20, 100, 16 << 20));
    private static final int SHOWN_CHARS = 200;

    private WireJson() {
    }

    /** Reads {@code {"a":"x","b":12,"c":null}}; strings stay {@code String}, numbers become {@code Long}. */
    static Map<String, Object> parse(String text) {
        return parse(text, false);
    }

    /** As {@link #parse(String)}, and a value may also be a list of flat objects or of plain values ({@code List<Object>}). */
    static Map<String, Object> parseWithLists(String text) {
        return parse(text, true);
    }

    private static Map<String, Object> parse(String text, boolean lists) {
        JsonValue value;
        try {
            value = READER.read(text);
        } catch (MalformedJson e) {
            throw error(text, "the text " + e.what());
        }
        if (!value.fields().isPresent()) {
            throw error(text, "not an object");
        }
        return object(text, value, lists);
    }

    private static Map<String, Object> object(String text, JsonValue object, boolean lists) {
        Map<String, Object> read = new LinkedHashMap<>();
        for (Map.Entry<String, JsonValue> field : object.fields().get().entrySet()) {
            JsonValue value = field.getValue();
            if (lists && value.items().isPresent()) {
                List<Object> items = new ArrayList<>();
                for (JsonValue item : value.items().get()) {
                    items.add(item.fields().isPresent() ? object(text, item, false) : plain(text, item));
                }
                read.put(field.getKey(), items);
            } else {
                read.put(field.getKey(), plain(text, value));
            }
        }
        return read;
    }

    private static Object plain(String text, JsonValue value) {
        if (value.string().isPresent()) {
            return value.string().get();
        }
        if (value.bool().isPresent()) {
            return value.bool().get();
        }
        if (value.isNull()) {
            return null;
        }
        if (!value.number().isPresent()) {
            throw error(text, "expected a string, a whole number, true, false or null (nested values are not expected)");
        }
        String number = value.number().get();
        if (number.indexOf('.') >= 0 || number.indexOf('e') >= 0 || number.indexOf('E') >= 0) {
            throw error(text, "only whole numbers are expected");
        }
        try {
            return Long.valueOf(number);
        } catch (NumberFormatException e) {
            throw error(text, "number out of range");
        }
    }

    /** Writes a flat object; values may be {@code String}, whole {@code Number}, {@code Boolean}, null, or a list of flat objects. */
    static String write(Map<String, ?> object) {
        return fields(new JsonWriter(), object).end();
    }

    private static JsonWriter fields(JsonWriter json, Map<String, ?> object) {
        for (Map.Entry<String, ?> entry : object.entrySet()) {
            String name = entry.getKey();
            Object value = entry.getValue();
            if (value == null || value instanceof String) {
                json.field(name, (String) value);
            } else if (value instanceof Boolean) {
                json.field(name, (boolean) (Boolean) value);
            } else if (value instanceof Long || value instanceof Integer) {
                json.field(name, ((Number) value).longValue());
            } else if (value instanceof List) {
                json.array(name);
                for (Object item : (List<?>) value) {
                    @SuppressWarnings("unchecked")
                    Map<String, ?> flat = (Map<String, ?>) item;
                    fields(json.objectElement(), flat).close();
                }
                json.close();
            } else {
                throw new IllegalArgumentException("'" + name + "': " + value.getClass().getSimpleName() + " is not a wire value");
            }
        }
        return json;
    }

    private static IllegalArgumentException error(String text, String what) {
        String shown = text.length() > SHOWN_CHARS ? text.substring(0, SHOWN_CHARS) + "…" : text;
        return new IllegalArgumentException("not the JSON expected: " + what + " in " + shown);
    }
}
