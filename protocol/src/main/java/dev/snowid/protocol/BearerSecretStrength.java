package dev.snowid.protocol;

import java.util.HashSet;
import java.util.Set;

/**
 * How strong a lease API bearer secret is, said once for the client, the agent and the local
 * runner. The function keeps only the secret's unsalted SHA-256 in its environment, so anyone
 * allowed to read the function's configuration can guess offline: a secret must carry at least
 * {@value #MIN_BITS} bits.
 *
 * <p>The estimate starts from a string drawn at random from the alphabet its character classes
 * span (lower case 26, upper case 26, digits 10, anything else 33; hex digits alone 16), and takes
 * away what structure gives away, as zxcvbn does:
 * <ul>
 *   <li>a <b>repeat</b>: {@value #MIN_PATTERN} or more characters that already occurred (a run of
 *       one character is a repeat of the one before it) cost where and how long, not their characters;</li>
 *   <li>a <b>sequence</b>: {@value #MIN_PATTERN} or more characters stepping by one
 *       ({@code abcdefghi}, {@code 987654321}) cost its start, direction and length;</li>
 *   <li>a <b>short alphabet</b>: a string with at most half the distinct characters a random one of
 *       its length and classes shows costs which characters, then each one among those.</li>
 * </ul>
 * The lengths are chosen so that random secrets never meet them: a pattern of {@value #MIN_PATTERN}
 * in 32 random hex digits happens about once in 10^8, so {@value #HOW_TO_GENERATE} (256 bits) and
 * {@code openssl rand -hex 16} (exactly 128) pass, while {@code 1111111111111111111111111111111111111111},
 * {@code passwordpasswordpassword12} and {@code abcdefabcdefabcdefabcdefabcdefab} do not. It still
 * over-counts a phrase of words: use a generator.
 */
public final class BearerSecretStrength {

    /** The fewest bits of entropy a secret may have. */
    public static final int MIN_BITS = 128;
    /** How to make one, for error messages and the docs. */
    public static final String HOW_TO_GENERATE = "openssl rand -base64 32";
    /** The shortest repeat or sequence counted as one. */
    static final int MIN_PATTERN = 9;
    /** A secret is analysed up to this many characters: far more than the bits needed, and quick. */
    private static final int ANALYSED_CHARS = 1024;

    private static final int LOWER = 26;
    private static final int UPPER = 26;
    private static final int DIGITS = 10;
    private static final int OTHER = 33;
    private static final int HEX = 16;

    private BearerSecretStrength() {
    }

    /** The estimated bits of entropy of {@code secret}: as if drawn at random, less what repeats, sequences and a short alphabet give away. */
    public static double estimatedBits(String secret) {
        String text = secret.length() > ANALYSED_CHARS ? secret.substring(0, ANALYSED_CHARS) : secret;
        int alphabet = alphabet(text);
        if (alphabet <= 1 || text.isEmpty()) {
            return 0;
        }
        int distinct = distinct(text);
        double expectedDistinct = alphabet * (1 - Math.pow(1 - 1.0 / alphabet, text.length()));
        boolean shortAlphabet = distinct <= expectedDistinct / 2;
        double perChar = log2(shortAlphabet ? distinct : alphabet);
        double bits = shortAlphabet ? log2Binomial(alphabet, distinct) : 0;
        int i = 0;
        while (i < text.length()) {
            int repeat = repeatAt(text, i);
            int sequence = sequenceAt(text, i);
            if (repeat >= MIN_PATTERN && repeat >= sequence) {
                bits += log2(i) + log2(repeat); // where it was before (at most i back), and how long
                i += repeat;
            } else if (sequence >= MIN_PATTERN) {
                bits += perChar + 1 + log2(sequence); // its first character, up or down, how long
                i += sequence;
            } else {
                bits += perChar;
                i++;
            }
        }
        return bits;
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
                + " bits of entropy (repeats, sequences and few distinct characters count for what they give away), fewer than"
                + " the " + MIN_BITS + " needed (the function keeps the secret's unsalted SHA-256, which a weaker secret does not"
                + " survive an offline guess); generate one with: " + HOW_TO_GENERATE;
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

    /** The size of the alphabet the character classes of {@code text} span; hex digits alone are 16. */
    private static int alphabet(String text) {
        boolean lower = false;
        boolean upper = false;
        boolean digit = false;
        boolean other = false;
        boolean hex = true;
        boolean hexLetter = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean hexDigitLetter = c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
            hex &= hexDigitLetter || c >= '0' && c <= '9';
            hexLetter |= hexDigitLetter;
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
        if (hex && hexLetter) {
            return HEX; // exact: 32 hex digits are 128 bits; digits alone count as digits (10)
        }
        return (lower ? LOWER : 0) + (upper ? UPPER : 0) + (digit ? DIGITS : 0) + (other ? OTHER : 0);
    }

    private static int distinct(String text) {
        Set<Character> seen = new HashSet<>();
        for (int i = 0; i < text.length(); i++) {
            seen.add(text.charAt(i));
        }
        return seen.size();
    }

    /** How many characters from {@code i} on already occurred, starting earlier (overlapping allowed: a run repeats itself). */
    private static int repeatAt(String text, int i) {
        int length = 0;
        while (i + length < text.length() && text.indexOf(text.substring(i, i + length + 1)) < i) {
            length++;
        }
        return length;
    }

    /** How many characters from {@code i} on step by one, up or down ({@code abc}, {@code 321}); at least 1. */
    private static int sequenceAt(String text, int i) {
        if (i + 1 >= text.length()) {
            return 1;
        }
        int step = text.charAt(i + 1) - text.charAt(i);
        if (step != 1 && step != -1) {
            return 1;
        }
        int length = 2;
        while (i + length < text.length() && text.charAt(i + length) - text.charAt(i + length - 1) == step) {
            length++;
        }
        return length;
    }

    private static double log2(double x) {
        return x <= 1 ? 0 : Math.log(x) / Math.log(2);
    }

    /** log2 of n choose k: which k of n characters a short alphabet uses. */
    private static double log2Binomial(int n, int k) {
        double bits = 0;
        for (int i = 0; i < k; i++) {
            bits += log2(n - i) - log2(i + 1);
        }
        return bits;
    }
}
