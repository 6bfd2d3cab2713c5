package dev.snowid.internal;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a message may not show of a value: the one home of the rules every front end's messages
 * follow beside a setting's own {@link Setting#secret()}. A value under a name that sounds
 * secret, and the user information, query and fragment of a URL, are hidden.
 */
public final class SecretText {

    /** Replaces a value nobody may see in a message. */
    public static final String HIDDEN = "<not shown>";

    private static final String[] SECRET_WORDS = {"SECRET", "TOKEN", "PASSWORD", "PASSWD", "CREDENTIAL", "KEY", "AUTH"};

    private SecretText() {
    }

    /**
     * {@code text} with what a URL in it may carry of a secret hidden: its user information and its
     * query or fragment ({@code https://<not shown>@host/path?<not shown>}).
     */
    public static String withUrlSecretsHidden(String text) {
        if (text == null || !text.contains("://")) {
            return text; // both patterns need a scheme's "://": most values (and every start) never compile them
        }
        String hidden = UrlPatterns.QUERY.matcher(text).replaceAll("$1$2" + HIDDEN); // first: HIDDEN has a space, where a URL ends
        return UrlPatterns.USER_INFO.matcher(hidden).replaceAll("$1" + HIDDEN + "@");
    }

    /**
     * Compiled when a URL is first hidden, not with this class: the agent's settings are quoted
     * through here at start-up, and compiling would load java.util.regex and spin its lambdas before main.
     */
    private static final class UrlPatterns {
        static final Pattern USER_INFO = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/?#@\\s]*@");
        static final Pattern QUERY = Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://[^?#\\s]*)([?#])\\S*");
    }

    /** Whether a setting of this name probably holds a secret ({@code SNOWID_LEASE_TOKEN}, {@code snowid.api.key}, …). */
    public static boolean soundsSecret(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        for (String word : SECRET_WORDS) {
            if (upper.contains(word)) {
                return true;
            }
        }
        return false;
    }
}
