package dev.snowid.protocol;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.lease.AcquisitionSupersededException;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.region.BlockNotClaimedException;

/**
 * Every error code the snowid API answers with, and its HTTP status. The function picks the
 * code, the client reads it back ({@link #fromWire(String)}); for a 503, {@link #of(IdUnavailableException)}
 * is the one mapping from "why no ID" to the code, and {@link #publicMessage()} what a caller is
 * told (the cause names tables and endpoints, which is the operator's business and only logged).
 */
public enum ErrorCode {

    INVALID_COUNT(400, "invalid_count"),
    INVALID_ID(400, "invalid_id"),
    INVALID_JSON(400, "invalid_json"),
    INVALID_BODY(400, "invalid_body"),
    INVALID_ENCODING(400, "invalid_encoding"),
    INVALID_EVENT(400, "invalid_event"),
    /** A query parameter the route does not take. */
    INVALID_QUERY(400, "invalid_query"),
    UNAUTHORIZED(401, "unauthorized"),
    /** The caller is verified (IAM) but not among the principals the function admits. */
    FORBIDDEN(403, "forbidden"),
    NOT_FOUND(404, "not_found"),
    METHOD_NOT_ALLOWED(405, "method_not_allowed"),
    /** The slot is not held with this owner token and fence: stop issuing from it. */
    LEASE_LOST(409, "lease_lost"),
    /** The acquisition's request id was first sent by another caller: it answers that caller only; draw a fresh one. */
    REQUEST_ID_CONFLICT(409, "request_id_conflict"),
    INTERNAL(500, "internal"),
    NO_FREE_SLOT(503, "no_free_slot", "every slot of this function's pool is leased"),
    STORE_UNAVAILABLE(503, "store_unavailable", "the lease store is unavailable"),
    CLOCK_BEHIND(503, "clock_behind", "this function's clock is behind the time its lease starts at"),
    CLOCK_SKEW(503, "clock_skew", "this function's clock differs from the lease store's by more than the tolerated skew"),
    ACQUISITION_SUPERSEDED(503, "acquisition_superseded",
            "another acquisition with this request id took this one's place; send the request again to be answered with its lease"),
    UNAVAILABLE(503, "unavailable", "no lease is in force for this function right now (lost or run out)"),
    /** The stack's block is not confirmed as claimed for its region in the claim registry ({@code dev.snowid.region}). */
    BLOCK_NOT_CLAIMED(503, "block_not_claimed", "this stack's datacenter block is not claimed for its region in the claim registry");

    private final int status;
    private final String code;
    private final String publicMessage;

    ErrorCode(int status, String code) {
        this(status, code, null);
    }

    ErrorCode(int status, String code, String publicMessage) {
        this.status = status;
        this.code = code;
        this.publicMessage = publicMessage;
    }

    public int status() {
        return status;
    }

    /** The code as it travels in {@code {"error":"<code>"}}. */
    public String code() {
        return code;
    }

    /** For a 503: the fixed text a caller is told; null for the others, whose messages are specific. */
    public String publicMessage() {
        return publicMessage;
    }

    /** The 503 code for why no ID can be issued now. */
    public static ErrorCode of(IdUnavailableException e) {
        if (e instanceof NoFreeSlotException) {
            return NO_FREE_SLOT;
        }
        if (e instanceof LeaseStoreUnavailableException) {
            return STORE_UNAVAILABLE;
        }
        if (e instanceof ClockBehindException) {
            return CLOCK_BEHIND;
        }
        if (e instanceof ClockSkewException) {
            return CLOCK_SKEW;
        }
        if (e instanceof AcquisitionSupersededException) {
            return ACQUISITION_SUPERSEDED;
        }
        if (e instanceof BlockNotClaimedException) {
            return BLOCK_NOT_CLAIMED;
        }
        return UNAVAILABLE;
    }

    /** The code a wire text names; null for a text this version does not know (an older or newer server, a proxy). */
    public static ErrorCode fromWire(String code) {
        for (ErrorCode known : values()) {
            if (known.code.equals(code)) {
                return known;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return code;
    }
}
