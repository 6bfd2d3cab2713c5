package dev.snowid.protocol;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON for the API's fixed shapes: one flat object whose values are strings, whole
 * numbers, booleans or null; for the slot map and {@code /ids} also lists of such flat objects or
 * of such values. The agent
 * carries no JSON library into legacy JVMs; anything outside this subset is rejected with the
 * position, never guessed at.
 */
final class FlatJson {

    private final String text;
    private final boolean lists;
    private int position;

    private FlatJson(String text, boolean lists) {
        this.text = text;
        this.lists = lists;
    }

    /** Parses {@code {"a":"x","b":12,"c":null}}; strings stay {@code String}, numbers become {@code Long}. */
    static Map<String, Object> parse(String text) {
        return parse(text, false);
    }

    /** As {@link #parse(String)}, and a value may also be a list of flat objects or of plain values ({@code List<Object>}). */
    static Map<String, Object> parseWithLists(String text) {
        return parse(text, true);
    }

    private static Map<String, Object> parse(String text, boolean lists) {
        FlatJson parser = new FlatJson(text, lists);
        parser.skipSpace();
        Map<String, Object> object = parser.object();
        parser.skipSpace();
        if (parser.position != text.length()) {
            throw parser.error("unexpected text after the object");
        }
        return object;
    }

    /** Writes a flat object; values may be {@code String}, {@code Number}, {@code Boolean}, null, or a list of flat objects. */
    static String write(Map<String, ?> object) {
        StringBuilder json = new StringBuilder();
        write(json, object);
        return json.toString();
    }

    private static void write(StringBuilder json, Map<String, ?> object) {
        int start = json.length();
        json.append('{');
        for (Map.Entry<String, ?> entry : object.entrySet()) {
            if (json.length() > start + 1) {
                json.append(',');
            }
            JsonString.quote(json, entry.getKey());
            json.append(':');
            Object value = entry.getValue();
            if (value instanceof String) {
                JsonString.quote(json, (String) value);
            } else if (value instanceof List) {
                json.append('[');
                boolean first = true;
                for (Object element : (List<?>) value) {
                    if (!first) {
                        json.append(',');
                    }
                    first = false;
                    @SuppressWarnings("unchecked")
                    Map<String, ?> item = (Map<String, ?>) element;
                    write(json, item);
                }
                json.append(']');
            } else {
                json.append(value);
            }
        }
        json.append('}');
    }

    private Map<String, Object> object() {
        Map<String, Object> object = new LinkedHashMap<>();
        expect('{');
        skipSpace();
        if (peek() == '}') {
            position++;
            return object;
        }
        while (true) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            object.put(key, value());
            skipSpace();
            char next = next();
            if (next == '}') {
                return object;
            }
            if (next != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private Object value() {
        char c = peek();
        if (c == '"') {
            return string();
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            int start = position;
            if (c == '-') {
                position++;
            }
            while (position < text.length() && Character.isDigit(text.charAt(position))) {
                position++;
            }
            if (position < text.length() && ".eE".indexOf(text.charAt(position)) >= 0) {
                throw error("only whole numbers are expected");
            }
            try {
                return Long.valueOf(text.substring(start, position));
            } catch (NumberFormatException e) {
                throw error("number out of range");
            }
        }
        if (c == '[' && lists) {
            return list();
        }
        for (String literal : new String[] {"null", "true", "false"}) {
            if (text.startsWith(literal, position)) {
                position += literal.length();
                return literal.equals("null") ? null : Boolean.valueOf(literal);
            }
        }
        throw error("expected a string, a whole number, true, false or null (nested values are not expected)");
    }

    /** A list of flat objects or plain values: one level only, so the lists cannot nest further. */
    private List<Object> list() {
        List<Object> list = new ArrayList<>();
        expect('[');
        skipSpace();
        if (peek() == ']') {
            position++;
            return list;
        }
        FlatJson flat = new FlatJson(text, false);
        while (true) {
            skipSpace();
            flat.position = position;
            list.add(peek() == '{' ? flat.object() : flat.value());
            position = flat.position;
            skipSpace();
            char next = next();
            if (next == ']') {
                return list;
            }
            if (next != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder value = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return value.toString();
            }
            if (c != '\\') {
                value.append(c);
                continue;
            }
            char escaped = next();
            switch (escaped) {
                case 'n': value.append('\n'); break;
                case 't': value.append('\t'); break;
                case 'r': value.append('\r'); break;
                case 'b': value.append('\b'); break;
                case 'f': value.append('\f'); break;
                case 'u':
                    if (position + 4 > text.length()) {
                        throw error("truncated \\u escape");
                    }
                    try {
                        value.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("bad \\u escape");
                    }
                    position += 4;
                    break;
                default: value.append(escaped);
            }
        }
    }

    private void skipSpace() {
        while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
            position++;
        }
    }

    private void expect(char expected) {
        if (next() != expected) {
            position--;
            throw error("expected '" + expected + "'");
        }
    }

    private char peek() {
        if (position >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(position);
    }

    private char next() {
        char c = peek();
        position++;
        return c;
    }

    private IllegalArgumentException error(String what) {
        String shown = text.length() > 200 ? text.substring(0, 200) + "…" : text;
        return new IllegalArgumentException("not the JSON expected at character " + (position + 1) + ": " + what + " in " + shown);
    }
}
