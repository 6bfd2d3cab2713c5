package dev.snowid.internal;

import java.security.SecureRandom;

/**
 * The one shape of the lease protocol's random tokens: 128 bits as {@value #LENGTH} lower-case hex
 * digits. An owner token (which, with the fence, proves holding a lease) and an acquisition's
 * request id have it. Core draws them; the function checks what a client sends, the client what
 * the function answers.
 */
public final class HexToken {

    /** Characters of a token. */
    public static final int LENGTH = 32;
    /** The shape in words, for messages: {@value}. */
    public static final String SHAPE = LENGTH + " lower-case hex digits";

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private HexToken() {
    }

    /** A new token from {@code random}. */
    public static String draw(SecureRandom random) {
        byte[] bits = new byte[LENGTH / 2];
        random.nextBytes(bits);
        char[] text = new char[LENGTH];
        for (int i = 0; i < bits.length; i++) {
            text[2 * i] = HEX[(bits[i] >> 4) & 0xf];
            text[2 * i + 1] = HEX[bits[i] & 0xf];
        }
        return new String(text);
    }

    /** Whether {@code text} has a token's shape: exactly {@value #LENGTH} lower-case hex digits. */
    public static boolean isToken(String text) {
        if (text == null || text.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
