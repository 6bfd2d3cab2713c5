package dev.snowid.lease;

import java.security.SecureRandom;

/** The random token that proves holding a lease: 128 bits as 32 lower-case hex digits. */
final class OwnerToken {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private OwnerToken() {
    }

    static String draw(SecureRandom random) {
        byte[] bits = new byte[16];
        random.nextBytes(bits);
        char[] text = new char[32];
        for (int i = 0; i < bits.length; i++) {
            text[2 * i] = HEX[(bits[i] >> 4) & 0xf];
            text[2 * i + 1] = HEX[bits[i] & 0xf];
        }
        return new String(text);
    }
}
