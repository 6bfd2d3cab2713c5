package dev.snowid.lambda.settings;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.WholeNumber;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.EmptySecretHash;
import dev.snowid.protocol.HttpUrl;
import java.net.URI;
import java.util.HexFormat;
import java.util.Locale;

/**
 * How the function's settings read their text, each an {@link dev.snowid.internal.Setting.Parser}:
 * an {@link IllegalArgumentException} says what is wrong with the value and what is allowed;
 * {@link FunctionSettings} adds the variable's name.
 */
final class FunctionValues {

    static final String TABLE_ALLOWED = "3 to 255 characters of a-z, A-Z, 0-9, '_', '-' and '.'";
    static final String SHA256_ALLOWED = "exactly 64 hex digits, the SHA-256 of the bearer secret, not of the empty string (e.g. "
            + EmptySecretHash.HOW_TO_HASH + ")";
    static final String ENDPOINT_ALLOWED = "an http(s) URL such as http://localhost:8000";
    static final String SERVICE_ALLOWED = "1 to 255 printable ASCII characters, not all spaces (e.g. the stack name)";
    static final String NAMESPACE_ALLOWED = "1 to 255 characters of a-z, A-Z, 0-9, '.', '-', '_', '/', '#', ':' and space, not"
            + " starting with 'AWS/' (e.g. snowid)";
    static final String EPOCH_ALLOWED = "a unix ms in the past, e.g. the default " + SnowflakeCodec.TWITTER_EPOCH_MILLIS
            + " (Twitter's epoch)";

    private FunctionValues() {
    }

    /** DynamoDB's own rule; checked here so a typo fails at init, not on the first request. */
    static String table(String table) {
        if (table.length() < 3 || table.length() > 255 || !table.chars().allMatch(c -> c >= 'a' && c <= 'z'
                || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.')) {
            throw new IllegalArgumentException("'" + EchoedInput.shortened(table) + "' is not a DynamoDB table name; allowed "
                    + TABLE_ALLOWED);
        }
        return table;
    }

    /** The epoch's codec: a whole number of unix ms, in the past. */
    static SnowflakeCodec epoch(String text) {
        try {
            long epochMillis = WholeNumber.parse(text, 0, Long.MAX_VALUE - SnowflakeCodec.MAX_TIMESTAMP_OFFSET);
            return SnowflakeCodec.withPastEpoch(epochMillis, System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; allowed " + EPOCH_ALLOWED, e);
        }
    }

    static byte[] sha256(String hex) {
        if (hex.length() != 64) {
            throw new IllegalArgumentException("has " + hex.length() + " characters; allowed " + SHA256_ALLOWED);
        }
        if (EmptySecretHash.is(hex)) {
            throw new IllegalArgumentException(EmptySecretHash.refusal());
        }
        try {
            return HexFormat.of().parseHex(hex.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not hex; allowed " + SHA256_ALLOWED); // no cause: it quotes a character of the value
        }
    }

    static URI endpoint(String text) {
        try {
            return URI.create(HttpUrl.parse(text).toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + EchoedInput.shortened(HttpUrl.shown(text)) + "' " + e.getMessage() + "; allowed "
                    + ENDPOINT_ALLOWED, e);
        }
    }

    /** A CloudWatch dimension value: kept to printable ASCII, so a dashboard can name it in a URL or a template. */
    static String service(String text) {
        if (text.length() > 255 || text.isBlank() || !text.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("'" + EchoedInput.shortened(text) + "' is not a service name; allowed " + SERVICE_ALLOWED);
        }
        return text;
    }

    /** CloudWatch's rule for custom namespaces. */
    static String namespace(String text) {
        boolean allowed = text.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                || ".-_/#: ".indexOf(c) >= 0);
        if (text.length() > 255 || text.isBlank() || !allowed || text.startsWith("AWS/")) {
            throw new IllegalArgumentException("'" + EchoedInput.shortened(text) + "' is not a CloudWatch namespace; allowed "
                    + NAMESPACE_ALLOWED);
        }
        return text;
    }
}
