package dev.snowid.lease;

import dev.snowid.internal.HexToken;
import java.security.SecureRandom;

/**
 * The id of one logical acquisition: drawn once by the caller (128 random bits as 32 lower-case
 * hex digits, like an owner token) and sent again on each of its retries, so that an acquisition
 * whose answer was lost is answered again with the same lease rather than granted a second slot
 * ({@link LeaseStore#grantedFor}). Whoever shows the id gets the lease's owner token: it is as
 * secret as the token, and goes only where the token goes.
 */
public final class AcquisitionRequest {

    /** Length of an id. */
    public static final int LENGTH = HexToken.LENGTH;

    private AcquisitionRequest() {
    }

    /** A new id, from a {@link SecureRandom} made for it (never one made before a SnapStart snapshot). */
    public static String drawId() {
        return HexToken.draw(new SecureRandom());
    }

    /** Whether {@code text} has an id's shape: exactly {@value #LENGTH} lower-case hex digits. */
    public static boolean isId(String text) {
        return HexToken.isToken(text); // the format of today; a request id is not checked for entropy yet
    }
}
