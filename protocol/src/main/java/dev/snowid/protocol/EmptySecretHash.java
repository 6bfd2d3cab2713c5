package dev.snowid.protocol;

import dev.snowid.internal.WarningCode;
import java.util.Locale;

/**
 * The SHA-256 of nothing, which opens nothing. It is what {@code printf %s "$SNOWID_LEASE_SECRET" | sha256sum}
 * prints when the variable is unset, so a deployment configured with it would admit anyone who sends
 * an empty credential. The function refuses it as a secret's hash, the front ends as a secret
 * (its 64 hex digits look random to an estimator); the template's rule refuses it too.
 */
public final class EmptySecretHash {

    /** The hex SHA-256 of the empty string, in lower case. */
    public static final String HEX = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    /** How to hash a secret so that an unset variable stops the command instead of hashing nothing. */
    public static final String HOW_TO_HASH = "printf %s \"${SNOWID_LEASE_SECRET:?set it first}\" | sha256sum | cut -d' ' -f1";

    private EmptySecretHash() {
    }

    /** Whether {@code text}, trimmed, is the empty string's SHA-256 in any letter case. */
    public static boolean is(String text) {
        return text != null && text.trim().toLowerCase(Locale.ROOT).equals(HEX);
    }

    /** Why a hash setting holding it is refused, tagged, going on from the setting's name ("[empty_secret_hash] is …"). */
    public static String refusal() {
        return WarningCode.EMPTY_SECRET_HASH.tag("is the SHA-256 of the empty string: the secret's variable was unset or empty when it was hashed, and this hash would"
                + " open the lease routes to an empty credential; hash the secret with " + HOW_TO_HASH);
    }
}
