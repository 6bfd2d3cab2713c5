package dev.snowid.protocol;

/**
 * The {@code WWW-Authenticate} challenge of the API's 401 (RFC 6750), which also carries the
 * refusal's message: Java's {@code HttpURLConnection} drops the body of a 401 answered to a
 * streamed request (it closes the connection to rule out resending), while its headers survive,
 * and the client streams every lease request so that none is ever sent twice.
 */
public final class BearerChallenge {

    public static final String HEADER = "WWW-Authenticate";
    private static final String DESCRIPTION = "error_description=\"";

    private BearerChallenge() {
    }

    /** The challenge for a refusal saying {@code message}, quoted as RFC 6750 allows (printable ASCII but {@code "} and {@code \}). */
    public static String of(String message) {
        StringBuilder quoted = new StringBuilder(message.length());
        for (char c : message.toCharArray()) {
            quoted.append(c == '"' ? '\'' : c == '\\' ? '/' : c < 0x20 || c > 0x7e ? '?' : c);
        }
        return "Bearer realm=\"snowid-leases\", error=\"invalid_token\", " + DESCRIPTION + quoted + "\"";
    }

    /** The refusal's message in a challenge {@link #of} wrote; null when {@code header} is null or carries none. */
    public static String description(String header) {
        int start = header == null ? -1 : header.indexOf(DESCRIPTION);
        if (start < 0) {
            return null;
        }
        start += DESCRIPTION.length();
        int end = header.indexOf('"', start);
        return end < 0 ? null : header.substring(start, end);
    }
}
