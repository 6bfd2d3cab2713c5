package dev.snowid.lambda;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/** What a REST API (payload 1.0) hands over decoded; lenient, like API Gateway: a broken escape stays as it is. */
final class PercentDecodingForTests {

    private PercentDecodingForTests() {
    }

    static String query(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException broken) {
            return raw;
        }
    }

    static String path(String raw) {
        try {
            return URLDecoder.decode(raw.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException broken) {
            return raw;
        }
    }
}
