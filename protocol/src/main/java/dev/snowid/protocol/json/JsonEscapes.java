package dev.snowid.protocol.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;

/**
 * snowid's escaping rules on top of jackson's: {@code \b} and {@code \f} as {@code \}{@code u00xx}
 * like every control character without a two-character escape, and U+2028/U+2029 escaped
 * (JavaScript before ES2019 reads them as line breaks inside a string). A lone surrogate is not
 * UTF-8 and makes the output unreadable to strict parsers, so a string holding one is written with
 * every surrogate escaped ({@link #escapeSurrogates}); well-formed pairs elsewhere stay as they are.
 *
 * <p>One instance per {@link JsonWriter}: the surrogate switch is the writer's state.
 */
final class JsonEscapes extends CharacterEscapes {

    private static final int[] ASCII = asciiEscapes();
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Set by the writer for the one string being written when it holds a lone surrogate. */
    boolean escapeSurrogates;

    /**
     * Control characters other than {@code \n}, {@code \r} and {@code \t} are written here, not by
     * jackson: its hex digits are upper case before 2.14 and lower case only by a switch after, and
     * applications bring their own jackson-core.
     */
    private static int[] asciiEscapes() {
        int[] codes = CharacterEscapes.standardAsciiEscapesForJSON();
        for (int ch = 0; ch < 0x20; ch++) {
            if (ch != '\n' && ch != '\r' && ch != '\t') {
                codes[ch] = CharacterEscapes.ESCAPE_CUSTOM;
            }
        }
        return codes;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
        return ASCII;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
        if (ch < 0x20 || ch == 0x2028 || ch == 0x2029 || escapeSurrogates && Character.isSurrogate((char) ch)) {
            return new SerializedString(new String(new char[] {'\\', 'u', HEX[ch >> 12 & 0xF], HEX[ch >> 8 & 0xF],
                HEX[ch >> 4 & 0xF], HEX[ch & 0xF]}));
        }
        return null;
    }

    /** Whether {@code value} holds a surrogate that is not half of a well-formed pair. */
    static boolean hasLoneSurrogate(CharSequence value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                } else {
                    return true;
                }
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
