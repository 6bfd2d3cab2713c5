package dev.snowid.local;

import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.PercentDecoding;
import java.net.URI;
import java.util.Optional;

/**
 * The path of a request as the client sent it. The JDK server hands over the request target as
 * a {@link URI}, which reads {@code ///ids} as an empty authority and the path {@code /ids}; API
 * Gateway passes {@code ///ids} on as it is, and the function answers 404. So the path is cut
 * from the target's text, not taken from the URI's parts.
 */
final class RequestTarget {

    private RequestTarget() {
    }

    /** The raw (still percent-encoded) path of the target; "/" when it has none. */
    static String rawPath(URI target) {
        if (target.getScheme() != null) { // absolute form, "http://host/path": the URI's path is the path
            String path = target.getRawPath();
            return path == null || path.isEmpty() ? "/" : bytesEscaped(path);
        }
        String text = target.toString(); // the target as sent
        int end = text.length();
        int query = text.indexOf('?');
        int fragment = text.indexOf('#');
        if (query >= 0) {
            end = query;
        }
        if (fragment >= 0 && fragment < end) {
            end = fragment;
        }
        return end == 0 ? "/" : bytesEscaped(text.substring(0, end));
    }

    /** The raw (still percent-encoded) query of the target; empty when it has none. */
    static String rawQuery(URI target) {
        String query = target.getRawQuery();
        return query == null ? "" : bytesEscaped(query);
    }

    /**
     * The JDK server reads the request line as ISO-8859-1, so each character from U+0080 to U+00FF
     * is one byte the client sent unencoded (a UTF-8 {@code é} arrives as {@code Ã©}). Each is
     * percent-encoded here: the handler decodes the path and query as UTF-8, and echoes what was
     * sent, or refuses bytes that are not UTF-8.
     */
    static String bytesEscaped(String raw) {
        StringBuilder escaped = null;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c >= 0x80) {
                if (escaped == null) {
                    escaped = new StringBuilder(raw.length() + 16).append(raw, 0, i);
                }
                escaped.append(String.format("%%%02X", c & 0xFF));
            } else if (escaped != null) {
                escaped.append(c);
            }
        }
        return escaped == null ? raw : escaped.toString();
    }

    /**
     * The path as the handler will route it: percent-decoded by the handler's own rule. Empty
     * when it cannot be decoded (the handler answers 400). What the runner decides on before
     * the handler (the gate, the lane) must read this, never the raw path: {@code /%69ds} is
     * {@code /ids} to the handler.
     */
    static Optional<String> decodedPath(URI target) {
        try {
            return Optional.of(PercentDecoding.decodePath(rawPath(target)));
        } catch (ApiError broken) {
            return Optional.empty();
        }
    }
}
