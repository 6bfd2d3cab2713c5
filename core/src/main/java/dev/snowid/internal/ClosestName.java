package dev.snowid.internal;

import java.util.Collection;
import java.util.Locale;

/**
 * The one rule for naming the setting a user probably meant: of the known names, the one fewest
 * edits away (insertions, deletions, substitutions; case ignored), if it is close enough to be a
 * typo rather than another word: at most 2 edits, or a sixth of the name for long names. The
 * agent's properties, the client builder and the function's {@code SNOWID_*} variables all use it.
 */
public final class ClosestName {

    private ClosestName() {
    }

    /** The known name closest to {@code typed}; null when none is close, or {@code typed} is itself known. */
    public static String among(String typed, Collection<String> known) {
        String lower = typed.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : known) {
            String candidate = name.toLowerCase(Locale.ROOT);
            if (candidate.equals(lower)) {
                return name.equals(typed) ? null : name;
            }
            int distance = distance(lower, candidate);
            if (distance < bestDistance && distance <= Math.max(2, candidate.length() / 6)) {
                best = name;
                bestDistance = distance;
            }
        }
        return best;
    }

    /** {@code "; did you mean `snowid.targets`?"}, or empty when no known name is close. */
    public static String didYouMean(String typed, Collection<String> known) {
        String closest = among(typed, known);
        return closest == null ? "" : "; did you mean `" + closest + "`?";
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
