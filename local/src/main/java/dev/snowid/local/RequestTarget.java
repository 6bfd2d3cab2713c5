package dev.snowid.local;

import java.net.URI;

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
            return path == null || path.isEmpty() ? "/" : path;
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
        return end == 0 ? "/" : text.substring(0, end);
    }
}
