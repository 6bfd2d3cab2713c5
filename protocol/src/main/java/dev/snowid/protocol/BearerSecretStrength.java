package dev.snowid.protocol;


/**
 * How strong a lease API bearer secret is, said once for the client, the agent and the local
 * runner. The function keeps only the secret's unsalted SHA-256 in its environment, so anyone
 * allowed to read the function's configuration can guess offline: a secret must carry at least
 * {@value #MIN_BITS} bits.
 *
 * <p>The estimate is the one for a string drawn at random: length times log2 of the alphabet
 * its character classes span (lower case 26, upper case 26, digits 10, anything else 33; hex
 * digits alone 4 bits a character). It
 * over-counts a phrase of words, never under-counts a random string: 22 characters of base64
 * (132 bits) pass, as does {@value #HOW_TO_GENERATE} (44 characters).
 */
public final class BearerSecretStrength {

    /** The fewest bits of entropy a secret may have. */
    public static final int MIN_BITS = 128;
    /** How to make one, for error messages and the docs. */
    public static final String HOW_TO_GENERATE = "openssl rand -base64 32";

    private static final int LOWER = 26;
    private static final int UPPER = 26;
    private static final int DIGITS = 10;
    private static final int OTHER = 33;

    private BearerSecretStrength() {
    }

    private static boolean isHex(String secret) {
        boolean letters = false;
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            boolean letter = c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
            if (!(letter || c >= '0' && c <= '9')) {
                return false;
            }
            letters |= letter;
        }
        return letters; // digits only count as digits (alphabet 10)
    }

    /** The estimated bits of entropy of {@code secret}, as if drawn at random from its character classes. */
    public static double estimatedBits(String secret) {
        boolean lower = false;
        boolean upper = false;
        boolean digit = false;
        boolean other = false;
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (c >= 'a' && c <= 'z') {
                lower = true;
            } else if (c >= 'A' && c <= 'Z') {
                upper = true;
            } else if (c >= '0' && c <= '9') {
                digit = true;
            } else {
                other = true;
            }
        }
        if (isHex(secret)) {
            return secret.length() * 4.0; // exact: 32 hex digits are 128 bits, not a rounding error below
        }
        int alphabet = (lower ? LOWER : 0) + (upper ? UPPER : 0) + (digit ? DIGITS : 0) + (other ? OTHER : 0);
        return alphabet <= 1 ? 0 : secret.length() * Math.log(alphabet) / Math.log(2);
    }

    /**
     * What is wrong with {@code secret} as a bearer secret, or null when it is strong enough; never
     * quotes the secret.
     *
     * @return e.g. "is too weak for a lease API bearer secret: …; generate one with: openssl rand -base64 32"
     */
    public static String weakness(String secret) {
        double bits = estimatedBits(secret);
        if (bits >= MIN_BITS) {
            return null;
        }
        return "is too weak for a lease API bearer secret: " + secret.length() + " characters, about " + (long) bits
                + " bits of entropy, fewer than the " + MIN_BITS + " needed (the function keeps the secret's unsalted SHA-256,"
                + " which a weaker secret does not survive an offline guess); generate one with: " + HOW_TO_GENERATE;
    }

    /**
     * Refuses a secret weaker than {@value #MIN_BITS} bits.
     *
     * @param setting where the secret came from (a setting or builder method), named first in the message
     * @return the secret
     * @throws IllegalArgumentException naming the setting, the estimate and how to generate a strong one
     */
    public static String requireStrong(String setting, String secret) {
        String weakness = weakness(secret);
        if (weakness != null) {
            throw new IllegalArgumentException(setting + " " + weakness);
        }
        return secret;
    }
}
