package dev.snowid.client;

import dev.snowid.IdUnavailableException;
import dev.snowid.protocol.ErrorCode;

/**
 * The lease API refused this holder's credentials (HTTP 401 or 403): a misconfiguration, not an
 * outage. It is fixed by an operator (the right secret, or a role allowed to call), so the holder
 * asks again no sooner than {@link #MIN_RETRY_AFTER_MILLIS}; the secret is read anew on every call,
 * so a rotated one is picked up then.
 */
public final class LeaseSecretRefusedException extends IdUnavailableException {

    private static final long serialVersionUID = 1L;

    /** A refused secret is not retried like an outage: at most one call per this many ms. */
    public static final long MIN_RETRY_AFTER_MILLIS = 10_000;

    private final int status;
    private final ErrorCode code;

    public LeaseSecretRefusedException(int status, String detail, long retryAfterMillis) {
        this(status, null, detail, retryAfterMillis);
    }

    /** @param code the lease API's own code for the refusal; null when the answer named none */
    public LeaseSecretRefusedException(int status, ErrorCode code, String detail, long retryAfterMillis) {
        super("HTTP " + status + " (the lease API refused the credentials: check the bearer secret or the caller's"
                + " permissions): " + detail, Math.max(MIN_RETRY_AFTER_MILLIS, retryAfterMillis));
        this.status = status;
        this.code = code;
    }

    /**
     * The function's own code for the refusal ({@code unauthorized}, {@code forbidden}: an IAM caller
     * it does not list, whose ARN the message names); null when the answer named none: API Gateway's
     * IAM authorization refused the signature before the function ran (a 401's code and message
     * come from its challenge header when its body cannot be read: {@link dev.snowid.protocol.BearerChallenge}).
     */
    public ErrorCode code() {
        return code;
    }

    /** 401 (no or wrong credentials) or 403 (not allowed). */
    public int status() {
        return status;
    }
}
