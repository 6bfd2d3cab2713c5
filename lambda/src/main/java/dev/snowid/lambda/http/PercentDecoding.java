package dev.snowid.lambda.http;

import dev.snowid.protocol.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Percent-decoding of raw paths and query strings (payload 2.0 passes them as sent), strict:
 * a broken escape or invalid UTF-8 is the client's mistake, answered with 400.
 */
public final class PercentDecoding {

    private PercentDecoding() {
    }

    /**
     * {@code a=1&b=x%20y&a=2} → {a=[1, 2], b=[x y]}. '+' stays a plus sign (RFC 3986; the API takes
     * no HTML forms), so {@code count=+3} is refused and quoted back as typed, not as {@code ' 3'}.
     */
    static Map<String, List<String>> parseQuery(String raw) {
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), "query string");
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), "query string");
            query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return query;
    }

    /**
     * A raw path; '+' stays a plus sign, and an encoded slash ({@code %2F}) stays encoded: it is
     * part of a segment, never a separator, so {@code /ids%2F1} is not {@code /ids/1}.
     */
    public static String decodePath(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        String[] segments = raw.split("(?i)%2F", -1);
        StringBuilder path = new StringBuilder(raw.length());
        for (int i = 0; i < segments.length; i++) {
            if (i > 0) {
                path.append("%2F");
            }
            path.append(decode(segments[i], "path"));
        }
        return path.toString();
    }

    private static String decode(String raw, String where) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = hi >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (lo < 0) {
                    throw ApiError.badRequest(ErrorCode.INVALID_ENCODING, "the " + where
                            + " has a broken percent escape near character " + (i + 1) + ": '%' must be followed by two hex digits");
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] utf8 = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < raw.length()) {
                    utf8 = raw.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                bytes.writeBytes(utf8);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw ApiError.badRequest(ErrorCode.INVALID_ENCODING, "the " + where + " percent-decodes to bytes that are not UTF-8");
        }
    }
}
