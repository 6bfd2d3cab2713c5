package dev.snowid.client;

import com.nulabinc.zxcvbn.Strength;
import com.nulabinc.zxcvbn.Zxcvbn;
import dev.snowid.internal.ProblemCode;
import dev.snowid.internal.WarningCode;
import dev.snowid.protocol.EmptySecretHash;

/**
 * Whether a lease API bearer secret is strong enough, said once for every front end that holds
 * one in clear: the client (and the starter through it), the agent and its CLI, the local runner.
 * The function keeps only the secret's unsalted SHA-256, which anyone allowed to read its
 * configuration can attack offline, so a secret must take an attacker at least 2^{@value #MIN_BITS}
 * guesses.
 *
 * <p>The guesses are zxcvbn's (Dropbox's estimator, ported by Nulab): it finds dictionary words,
 * keyboard walks, repeats, sequences, dates and l33t spellings, and counts what guessing them
 * costs. We judge on its guess count, not its 0–4 score, whose top step is a mere 10^10 guesses.
 * Its dictionaries load on the first call (about 0.1 s), so it runs only where a secret is held in
 * clear, once at start.
 */
public final class BearerSecretStrength {

    /** log2 of the fewest guesses a secret may take. */
    public static final int MIN_BITS = 128;
    /** How to make one, for error messages and the docs. */
    public static final String HOW_TO_GENERATE = "openssl rand -base64 32";
    /** What a secret setting allows, for the settings catalogues. */
    public static final String ALLOWED = "a secret that takes at least 2^" + MIN_BITS + " guesses, e.g. " + HOW_TO_GENERATE;
    /**
     * zxcvbn's time grows faster than the length (~1 s for 256 characters): a longer secret is judged on
     * its start, which must carry the bits alone (128 random base64 characters carry 768).
     */
    private static final int JUDGED_CHARS = 128;

    private BearerSecretStrength() {
    }

    /** log2 of the guesses zxcvbn estimates for {@code secret} (its first {@value #JUDGED_CHARS} characters). */
    public static double estimatedBits(String secret) {
        String judged = secret.length() > JUDGED_CHARS ? secret.substring(0, JUDGED_CHARS) : secret;
        if (judged.isEmpty()) {
            return 0;
        }
        Strength strength = Estimator.ZXCVBN.measure(judged);
        double log10 = strength.getGuessesLog10();
        strength.wipe(); // it keeps the password: not longer than needed
        return log10 / Math.log10(2);
    }

    /**
     * What is wrong with {@code secret} as a bearer secret, or null when it is strong enough; never
     * quotes the secret.
     *
     * @return e.g. "[weak_lease_secret] is too weak for a lease API bearer secret: …; generate one with: openssl rand -base64 32"
     */
    public static String weakness(String secret) {
        // The one extra rule zxcvbn needs: the empty string's SHA-256 is 64 hex digits it takes for random, yet it is
        // what hashing an unset variable prints, and the most likely "secret" of a botched setup.
        if (EmptySecretHash.is(secret)) {
            return WarningCode.WEAK_LEASE_SECRET.tag("is the SHA-256 of the empty string, not a secret: it is what hashing an unset"
                    + " variable prints, and anyone can guess it; generate a secret with: " + HOW_TO_GENERATE);
        }
        double bits = estimatedBits(secret);
        if (bits >= MIN_BITS) {
            return null;
        }
        return WarningCode.WEAK_LEASE_SECRET.tag("is too weak for a lease API bearer secret: " + secret.length()
                + " characters that an estimator guesses in about 2^" + (long) bits + " tries (words, names, keyboard walks, dates,"
                + " repeats and encodings of them count for what they give away), fewer than the 2^" + MIN_BITS + " needed: the function"
                + " keeps the secret's unsalted SHA-256, which a weaker secret does not survive an offline guess; generate one with: "
                + HOW_TO_GENERATE);
    }

    /**
     * Refuses a secret weaker than {@value #MIN_BITS} bits.
     *
     * @param setting where the secret came from (a setting or builder method), named after the code
     * @return the secret
     * @throws IllegalArgumentException {@code [weak_lease_secret] <setting> is too weak …}, with how to generate a strong one
     */
    public static String requireStrong(String setting, String secret) {
        String weakness = weakness(secret);
        if (weakness != null) {
            String code = ProblemCode.codeOf(weakness);
            throw new IllegalArgumentException(weakness.substring(0, code.length() + 3) + setting + " "
                    + weakness.substring(code.length() + 3));
        }
        return secret;
    }

    /** zxcvbn with its dictionaries, built on the first use: a process that judges no secret never loads them. */
    private static final class Estimator {
        static final Zxcvbn ZXCVBN = new Zxcvbn();
    }
}
