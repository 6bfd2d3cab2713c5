package dev.snowid.lease;

import dev.snowid.internal.HexToken;
import java.security.SecureRandom;

/**
 * The id of one logical acquisition: drawn once by the caller (128 random bits as 32 lower-case
 * hex digits, like an owner token) and sent again on each of its retries, so that an acquisition
 * whose answer was lost is answered again with the same lease rather than granted a second slot.
 * The first acquisition with an id binds it to its holder ({@link RequestClaim}): the id answers
 * that holder only, and is refused for any other ({@link RequestIdConflictException}).
 */
public final class AcquisitionRequest {

    /** Length of an id. */
    public static final int LENGTH = HexToken.LENGTH;
    /**
     * Different hex digits an id must have, at least: refuses constants and placeholders (all one
     * digit, a short pattern repeated), which two careless callers would share. A drawn id has
     * about 14; {@link #drawId()} never returns one with fewer than this.
     */
    public static final int MIN_DISTINCT_DIGITS = 8;
    /** The rule in words, for messages: {@value}. */
    public static final String SHAPE = HexToken.SHAPE + ", at least " + MIN_DISTINCT_DIGITS + " of them different";

    private AcquisitionRequest() {
    }

    /** A new id, from a {@link SecureRandom} made for it (never one made before a SnapStart snapshot). */
    public static String drawId() {
        SecureRandom random = new SecureRandom();
        String id;
        do {
            id = HexToken.draw(random);
        } while (!isId(id)); // about one draw in tens of millions has too few different digits
        return id;
    }

    /** Whether {@code text} is an id: {@value #SHAPE}. */
    public static boolean isId(String text) {
        if (!HexToken.isToken(text)) {
            return false;
        }
        int seen = 0;
        for (int i = 0; i < text.length(); i++) {
            seen |= 1 << Character.digit(text.charAt(i), 16);
        }
        return Integer.bitCount(seen) >= MIN_DISTINCT_DIGITS;
    }
}
