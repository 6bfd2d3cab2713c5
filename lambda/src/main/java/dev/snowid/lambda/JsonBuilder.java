package dev.snowid.lambda;

/**
 * Writes one JSON object, field by field, into a {@link StringBuilder}: all the handler ever
 * writes is small flat objects and one array of ID strings, which needs no framework. Public
 * for the local runner, which writes API Gateway events with it.
 */
public final class JsonBuilder {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final StringBuilder out;
    private boolean first = true;

    public JsonBuilder() {
        this(new StringBuilder(128));
    }

    public JsonBuilder(StringBuilder out) {
        this.out = out;
        out.append('{');
    }

    public JsonBuilder field(String name, String value) {
        name(name);
        if (value == null) {
            out.append("null");
        } else {
            string(out, value);
        }
        return this;
    }

    public JsonBuilder field(String name, long value) {
        name(name);
        out.append(value);
        return this;
    }

    public JsonBuilder field(String name, boolean value) {
        name(name);
        out.append(value);
        return this;
    }

    /** A number, or {@code null} when absent. */
    public JsonBuilder field(String name, Long value) {
        name(name);
        out.append(value == null ? "null" : value.toString());
        return this;
    }

    /** An already-written JSON value (an object or array built elsewhere). */
    public JsonBuilder rawField(String name, CharSequence json) {
        name(name);
        out.append(json);
        return this;
    }

    /** IDs as an array of decimal strings: JavaScript loses precision above 2^53. */
    public JsonBuilder idStrings(String name, long[] ids) {
        name(name);
        out.ensureCapacity(out.length() + ids.length * 22 + 2);
        out.append('[');
        for (int i = 0; i < ids.length; i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append('"').append(ids[i]).append('"');
        }
        out.append(']');
        return this;
    }

    /** An object of string values. */
    public JsonBuilder stringMap(String name, java.util.Map<String, String> values) {
        JsonBuilder object = new JsonBuilder();
        values.forEach(object::field);
        return rawField(name, object.end());
    }

    /** An array of strings. */
    public JsonBuilder stringArray(String name, java.util.List<String> values) {
        name(name);
        out.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            string(out, values.get(i));
        }
        out.append(']');
        return this;
    }

    public String end() {
        out.append('}');
        return out.toString();
    }

    private void name(String name) {
        if (!first) {
            out.append(',');
        }
        first = false;
        string(out, name);
        out.append(':');
    }

    /** Appends {@code value} as a JSON string literal. */
    public static void string(StringBuilder out, CharSequence value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    // Control characters, and lone surrogates and line separators that some
                    // readers choke on, are written as \\u escapes.
                    if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c)
                            && !validPair(value, i)) {
                        out.append("\\u").append(HEX[c >> 12 & 0xF]).append(HEX[c >> 8 & 0xF])
                                .append(HEX[c >> 4 & 0xF]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static boolean validPair(CharSequence value, int i) {
        char c = value.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
    }
}
