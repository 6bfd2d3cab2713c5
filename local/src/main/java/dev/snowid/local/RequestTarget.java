package dev.snowid.local;

import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.PercentDecoding;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The path of a request as the client sent it. The server hands over the request target as
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
     * The server reads the request target as UTF-8 (and refuses bytes that are not), so a client
     * that sent non-ASCII unencoded (curl {@code --globoff}) hands over characters, where API
     * Gateway's raw path holds their percent-encoded UTF-8 bytes. Each such character is
     * percent-encoded here as its UTF-8 bytes: the handler decodes the path and query as UTF-8,
     * and echoes what was sent.
     */
    static String bytesEscaped(String raw) {
        StringBuilder escaped = null;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c >= 0x80) {
                if (escaped == null) {
                    escaped = new StringBuilder(raw.length() + 16).append(raw, 0, i);
                }
                int end = Character.isHighSurrogate(c) && i + 1 < raw.length() ? i + 2 : i + 1;
                for (byte b : raw.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                    escaped.append(String.format("%%%02X", b & 0xFF));
                }
                i = end - 1;
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
