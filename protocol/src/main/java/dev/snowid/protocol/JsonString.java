package dev.snowid.protocol;

/**
 * The one rule for writing a JSON string literal, for every JSON snowid writes without jackson
 * (the lease bodies, the starter's error answers). Besides what JSON requires (quote, backslash,
 * control characters, every one as {@code \}{@code u00xx}), U+2028 and U+2029 (line ends to
 * JavaScript) and lone surrogates (not UTF-8 at all, so a reader would see a replacement
 * character or fail) are escaped. The function writes with jackson ({@code JsonEscapes}), which
 * escapes the same characters.
 */
public final class JsonString {

    private JsonString() {
    }

    /** {@code text} as a JSON string literal, quotes included. */
    public static String quoted(String text) {
        StringBuilder json = new StringBuilder(text.length() + 2);
        quote(json, text);
        return json.toString();
    }

    /** Appends {@code text} as a JSON string literal. */
    public static void quote(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20 || c == 0x2028 || c == 0x2029 || Character.isSurrogate(c) && !inPair(text, i)) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        json.append('"');
    }

    /** Whether the surrogate at {@code i} is half of a valid pair. */
    private static boolean inPair(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
