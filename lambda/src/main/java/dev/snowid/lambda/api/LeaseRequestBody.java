package dev.snowid.lambda.api;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.HexToken;
import dev.snowid.internal.WholeNumber;
import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.JsonBody;
import dev.snowid.lease.AcquisitionRequest;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.HolderLabel;
import dev.snowid.protocol.LeaseFields;
import dev.snowid.protocol.json.JsonValue;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The JSON bodies of the lease routes: what a caller must show to renew or release (owner token
 * and fence, as {@code POST /leases} gave them) and, to release, the last ms it issued an ID in.
 */
public final class LeaseRequestBody {

    static final String ACQUIRE = "an optional JSON object {\"holder\":\"<who is asking, "
            + HolderLabel.ALLOWED + ">\",\"" + LeaseFields.REQUEST_ID + "\":\"<this acquisition's random id, "
            + AcquisitionRequest.SHAPE + ", the same on its retries>\"}, both optional";
    static final String RENEW = "a JSON object {\"owner\":\"<owner token>\",\"fence\":<whole number>}, both as POST /leases returned them";
    static final String RELEASE = "a JSON object {\"owner\":\"<owner token>\",\"fence\":<whole number>,\"lastIssued\":<unix ms of the "
            + "last ID issued, 0 if none>}";

    /** The holder of a lease whose {@code POST /leases} named none (docs/api.md says so). */
    public static final String DEFAULT_HOLDER = "lease-api";

    /** Owner token and fence: together they prove the caller holds the slot's current lease. */
    record Claim(String owner, long fence) {
    }

    /** A claim plus the unix ms of the last ID issued under it (0 if none): what a release needs. */
    record Release(Claim claim, long lastIssued) {
    }

    private LeaseRequestBody() {
    }

    /** What a {@code POST /leases} body asks: who for, and which acquisition (its retries send the same id). */
    record Acquisition(Optional<String> holder, Optional<String> requestId) {
    }

    /** The holder and request id named in a {@code POST /leases} body, if any; an empty body is fine. */
    static Acquisition acquisition(byte[] body) {
        if (isBlank(body)) {
            return new Acquisition(Optional.empty(), Optional.empty());
        }
        Map<String, JsonValue> fields = JsonBody.object(body, ACQUIRE);
        return new Acquisition(holder(fields.get(LeaseFields.HOLDER)), requestId(fields.get(LeaseFields.REQUEST_ID)));
    }

    private static Optional<String> requestId(JsonValue id) {
        if (id == null || id.isNull()) {
            return Optional.empty();
        }
        String text = id.string().orElseThrow(() -> invalid(LeaseFields.REQUEST_ID + " is not a string", ACQUIRE));
        if (!AcquisitionRequest.isId(text)) {
            throw invalid(LeaseFields.REQUEST_ID + " is not an acquisition id (" + AcquisitionRequest.SHAPE + ": draw it at random)",
                    ACQUIRE);
        }
        return Optional.of(text);
    }

    private static Optional<String> holder(JsonValue holder) {
        if (holder == null || holder.isNull()) {
            return Optional.empty();
        }
        String text = holder.string().orElseThrow(() -> invalid("holder is not a string", ACQUIRE));
        String problem = HolderLabel.problem(text);
        if (problem != null) {
            throw invalid("holder " + problem, ACQUIRE);
        }
        return Optional.of(text);
    }

    static Claim claim(byte[] body) {
        Map<String, JsonValue> fields = required(body, RENEW);
        return new Claim(owner(fields, RENEW), wholeNumber(fields, LeaseFields.FENCE, RENEW));
    }

    static Release release(byte[] body, SnowflakeCodec codec) {
        Map<String, JsonValue> fields = required(body, RELEASE);
        Claim claim = new Claim(owner(fields, RELEASE), wholeNumber(fields, LeaseFields.FENCE, RELEASE));
        return new Release(claim, lastIssued(wholeNumber(fields, LeaseFields.LAST_ISSUED, RELEASE), codec));
    }

    /** 0 (nothing issued) or a unix ms an ID can carry: seconds, or a far-future typo, would move the slot's next floor wrongly. */
    private static long lastIssued(long millis, SnowflakeCodec codec) {
        if (millis != 0 && (millis < codec.epochMillis() || millis > codec.horizonMillis())) {
            throw invalid("lastIssued " + millis + " is not 0 (nothing issued) nor a unix ms from " + codec.epochMillis()
                    + " (the ID epoch) to " + codec.horizonMillis() + " (the last ms an ID can carry)"
                    + (millis < codec.epochMillis() ? "; is it in seconds?" : ""), RELEASE);
        }
        return millis;
    }

    private static Map<String, JsonValue> required(byte[] body, String expected) {
        if (isBlank(body)) {
            throw ApiError.badRequest(ErrorCode.INVALID_JSON, "the body is empty; expected " + expected);
        }
        return JsonBody.object(body, expected);
    }

    private static String owner(Map<String, JsonValue> fields, String expected) {
        JsonValue owner = fields.get(LeaseFields.OWNER);
        if (owner == null || owner.isNull()) {
            throw invalid("owner is missing", expected);
        }
        String text = owner.string().orElseThrow(() -> invalid("owner is not a string", expected));
        if (!HexToken.isToken(text)) {
            throw invalid("owner is not an owner token (" + HexToken.SHAPE + ")", expected);
        }
        return text;
    }

    /** A JSON integer from 0 to 2^63-1: not a string, not 1.0, not 1e3. */
    private static long wholeNumber(Map<String, JsonValue> fields, String name, String expected) {
        JsonValue node = fields.get(name);
        if (node == null || node.isNull()) {
            throw invalid(name + " is missing", expected);
        }
        String digits = node.number().orElseThrow(() -> invalid(name + " is not a number", expected));
        OptionalLong number = WholeNumber.parse(digits);
        if (!number.isPresent()) {
            throw invalid(name + " " + digits + " is not a whole number from 0 to " + Long.MAX_VALUE, expected);
        }
        try {
            return WholeNumber.parse(digits, 0, Long.MAX_VALUE);
        } catch (IllegalArgumentException e) {
            throw invalid(name + " " + digits + " is larger than " + Long.MAX_VALUE, expected);
        }
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
    }

    private static ApiError invalid(String what, String expected) {
        return ApiError.badRequest(ErrorCode.INVALID_BODY, what + "; expected " + expected);
    }
}
