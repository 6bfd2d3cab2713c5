package dev.snowid.local.http;

import java.util.Locale;

/**
 * How long a request's body says it is, checked as this server always did before Netty frames
 * it: framing that could be read two ways (both headers, two lengths, another transfer coding)
 * is refused, so that no proxy in front can see a different request than the handler does.
 * Netty refuses these too; checking here keeps the runner's own messages.
 */
final class BodyFraming {

    /** The announced length of a chunked body: not known before its last chunk. */
    static final long CHUNKED = -1;

    private BodyFraming() {
    }

    /** The body's length by Content-Length (0 when there is none), or {@link #CHUNKED}; refused when ambiguous or over {@code maxBytes}. */
    static long announced(RequestHead head, int maxBytes) {
        String encoding = head.header("Transfer-Encoding");
        String length = head.header("Content-Length");
        if (encoding != null) {
            if (length != null) {
                throw Refusal.invalid("the request has both Content-Length and Transfer-Encoding; send one");
            }
            if (head.http10() || !encoding.trim().toLowerCase(Locale.ROOT).equals("chunked")) {
                throw Refusal.invalid("the only Transfer-Encoding understood is chunked, on HTTP/1.1");
            }
            return CHUNKED;
        }
        if (length == null) {
            return 0;
        }
        String first = null;
        for (String value : length.split(",", -1)) { // repeated headers arrive joined with commas
            String trimmed = value.trim();
            if (trimmed.isEmpty() || trimmed.length() > 18 || !trimmed.chars().allMatch(c -> c >= '0' && c <= '9')
                    || first != null && !first.equals(trimmed)) {
                throw Refusal.invalid("Content-Length must be one whole number of bytes");
            }
            first = trimmed;
        }
        long announced = Long.parseLong(first);
        if (announced > maxBytes) {
            throw tooLarge(maxBytes);
        }
        return announced;
    }

    static Refusal tooLarge(int maxBytes) {
        return new Refusal(413, "payload_too_large", "the request body is larger than " + maxBytes + " bytes, Lambda's limit");
    }
}
