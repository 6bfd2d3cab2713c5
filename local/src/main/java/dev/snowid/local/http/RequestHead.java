package dev.snowid.local.http;

import com.sun.net.httpserver.Headers;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A request line and its headers, read strictly (RFC 9112): anything this server cannot read
 * unambiguously is a {@link Refusal} rather than a guess, so that what the handler is given is
 * what the client sent. The target is UTF-8 (raw non-ASCII reaches the function as the
 * characters sent); header values are ISO-8859-1, as HTTP defines them.
 *
 * @param target the request target as sent, e.g. {@code /ids?count=3}
 * @param uri    the same as a {@link URI}; for a target such as {@code //ids}, which a URI reads
 *               as a host with no path, the handler must cut the path from {@code target}
 * @param http10 true for HTTP/1.0, which this server answers and then closes
 */
record RequestHead(String method, String target, URI uri, boolean http10, Headers headers) {

    /** What a method name (a token) may hold. */
    private static final String TOKEN_PUNCTUATION = "!#$%&'*+-.^_`|~";
    /** What a path or query may hold besides letters, digits and percent-escapes (RFC 3986 pchar, "/" and "?"). */
    private static final String TARGET_PUNCTUATION = "-._~!$&'()*+,;=:@/?";

    /** Reads the head in {@code bytes} (the request line and header lines, without the empty line that ends them). */
    static RequestHead parse(List<byte[]> lines) {
        if (lines.isEmpty()) {
            throw Refusal.invalid("no request line");
        }
        String requestLine = latin1(lines.get(0));
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw Refusal.invalid("the request line is not 'METHOD target HTTP/1.1' (one space between each)");
        }
        String method = parts[0];
        if (!method.chars().allMatch(RequestHead::isTokenChar)) {
            throw Refusal.invalid("the method is not a token: letters, digits and " + TOKEN_PUNCTUATION);
        }
        boolean http10;
        if (parts[2].equals("HTTP/1.1")) {
            http10 = false;
        } else if (parts[2].equals("HTTP/1.0")) {
            http10 = true;
        } else {
            throw Refusal.invalid("this server speaks HTTP/1.1 and HTTP/1.0 only (the request line names another version)");
        }
        String target = utf8(lines.get(0), method.length() + 1, parts[1].length());
        URI uri = target(target);
        Headers headers = new Headers();
        for (int i = 1; i < lines.size(); i++) {
            header(latin1(lines.get(i)), headers);
        }
        return new RequestHead(method, target, uri, http10, headers);
    }

    /** The value of a header given once, or the values of one given several times joined with commas; null when absent. */
    String header(String name) {
        List<String> values = headers.get(name);
        return values == null ? null : String.join(",", values);
    }

    /** Whether the client asked to keep the connection open (HTTP/1.1 unless it said close; HTTP/1.0 never here). */
    boolean keepAlive() {
        String connection = header("Connection");
        return !http10 && (connection == null || List.of(connection.toLowerCase(Locale.ROOT).split("\\s*,\\s*")).stream()
                .noneMatch(option -> option.trim().equals("close")));
    }

    private static void header(String line, Headers headers) {
        if (line.startsWith(" ") || line.startsWith("\t")) {
            throw Refusal.invalid("a header line starts with white space (line folding is not allowed)");
        }
        int colon = line.indexOf(':');
        if (colon <= 0) {
            throw Refusal.invalid("a header line is not 'Name: value'");
        }
        String name = line.substring(0, colon);
        if (!name.chars().allMatch(RequestHead::isTokenChar)) {
            throw Refusal.invalid("a header name is not a token (no white space before the colon; letters, digits and "
                    + TOKEN_PUNCTUATION + ")");
        }
        // Only SP and HTAB surround a value (RFC 9110's OWS); String.strip() would also drop U+001C to U+001F unseen.
        String value = line.substring(colon + 1).replaceAll("^[ \t]+|[ \t]+$", "");
        if (value.chars().anyMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f)) {
            throw Refusal.invalid("the value of header " + name + " holds a control character");
        }
        headers.add(name, value);
    }

    /**
     * The target as a URI: origin form ({@code /path?query}) or absolute form
     * ({@code http://host/path}); each character one a URI may hold, each {@code %} followed by
     * two hex digits.
     */
    private static URI target(String target) {
        boolean absolute = target.regionMatches(true, 0, "http://", 0, 7) || target.regionMatches(true, 0, "https://", 0, 8);
        if (!absolute && !target.startsWith("/")) {
            throw Refusal.invalid("the request target must be a path such as /ids?count=3");
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '%') {
                if (i + 2 >= target.length() || Character.digit(target.charAt(i + 1), 16) < 0 || Character.digit(target.charAt(i + 2), 16) < 0) {
                    throw Refusal.invalid("the request target has a '%' at character " + (i + 1)
                            + " that is not followed by two hex digits; write a literal % as %25");
                }
            } else if (c < 0x80 ? !(Character.isLetterOrDigit(c) || TARGET_PUNCTUATION.indexOf(c) >= 0)
                    : Character.isISOControl(c) || Character.isSpaceChar(c) || Character.isSurrogate(c)) {
                throw Refusal.invalid("the request target has a character at position " + (i + 1) + " that a URL must"
                        + " percent-encode (allowed: letters, digits, " + TARGET_PUNCTUATION + " and %XX)");
            }
        }
        try {
            URI uri = new URI(target);
            if (absolute && uri.getHost() == null) {
                throw Refusal.invalid("the request target names no host after http://");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw Refusal.invalid("the request target is not a URI path: " + e.getReason());
        }
    }

    private static boolean isTokenChar(int c) {
        return c < 0x80 && (Character.isLetterOrDigit(c) || TOKEN_PUNCTUATION.indexOf(c) >= 0);
    }

    private static String latin1(byte[] line) {
        return new String(line, StandardCharsets.ISO_8859_1);
    }

    private static String utf8(byte[] line, int offset, int length) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(line, offset, length)).toString();
        } catch (CharacterCodingException e) {
            throw Refusal.invalid("the request target is not UTF-8");
        }
    }
}
