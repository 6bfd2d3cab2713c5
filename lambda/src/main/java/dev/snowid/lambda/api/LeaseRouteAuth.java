package dev.snowid.lambda.api;

import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.ApiRequest;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.LeasePrincipals;
import dev.snowid.protocol.LeaseAuthMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Guards the lease routes, in one of two modes ({@value FunctionSettings#LEASE_AUTH}).
 *
 * <p>{@code bearer}: the request shows {@code Authorization: Bearer <secret>}, checked by the one
 * {@link BearerSecretCheck} (the gateway's authorizer checked it once already, when the template
 * put one in front: this is defence in depth). A caller identity in the request context counts for
 * nothing here: anyone allowed to invoke the function directly can write one.
 *
 * <p>{@code aws_iam}: API Gateway verified the caller's SigV4 signature before invoking the
 * function (the template's {@code LeaseAuth=AWS_IAM}) and put the caller's ARN into the request
 * context; a blank ARN is no caller. The caller must be one of {@value FunctionSettings#LEASE_PRINCIPALS}
 * (an account's admin roles hold {@code execute-api:Invoke} too), and no bearer secret opens the
 * routes in this mode, whatever is configured: the mode says who is trusted, not what is set.
 */
public final class LeaseRouteAuth {

    private final LeaseAuthMode mode;
    private final BearerSecretCheck bearer;
    private final LeasePrincipals principals;

    /** @param principals who may use the routes in {@code aws_iam} mode; ignored in bearer mode */
    public LeaseRouteAuth(LeaseAuthMode mode, List<byte[]> secretHashes, LeasePrincipals principals) {
        this.mode = mode;
        this.bearer = new BearerSecretCheck(mode == LeaseAuthMode.AWS_IAM ? List.of() : secretHashes);
        this.principals = principals;
    }

    /** The check the settings configure: their mode, secret digests and principals. */
    public static LeaseRouteAuth of(FunctionSettings settings) {
        return new LeaseRouteAuth(settings.leaseAuth(), settings.leaseSecretHashes(), settings.leasePrincipals());
    }

    void check(ApiRequest request) {
        check(request.headers(), request.iamCaller());
    }

    /**
     * The same check on what a request shows before its body: its headers (names in lower case)
     * and the caller API Gateway verified. The local runner asks it before it reads a body.
     *
     * @throws ApiError 401 or 403 when the request may not use the lease routes
     */
    public void check(Map<String, String> headers, Optional<String> iamCaller) {
        if (mode == LeaseAuthMode.AWS_IAM) {
            String caller = iamCaller.filter(arn -> !arn.isBlank()).orElseThrow(() -> ApiError.unauthorized(
                    "the lease routes of this function admit only callers API Gateway verified with IAM (SigV4); this request "
                            + "carries no IAM caller: sign it with the credentials of a role listed in " + FunctionSettings.LEASE_PRINCIPALS));
            if (!principals.admits(caller)) {
                throw ApiError.forbidden("the IAM caller " + caller + " is not listed in " + FunctionSettings.LEASE_PRINCIPALS
                        + " (the template's LeasePrincipals), so it may not use the lease routes: add its role's ARN there to admit it");
            }
            return;
        }
        Optional<String> refusal = bearer.refusal(Optional.ofNullable(headers.get("authorization")));
        if (refusal.isPresent()) {
            throw ApiError.unauthorized(refusal.get());
        }
    }

    /**
     * Who a request that passed {@link #check} is, for the audit lines: the IAM caller in
     * {@code aws_iam} mode, else a bearer of the secret (a request context's caller counts for
     * nothing in bearer mode, so it is not written either).
     */
    String callerOf(ApiRequest request) {
        return mode == LeaseAuthMode.AWS_IAM ? "IAM caller " + iamCaller(request) : "bearer of the lease secret";
    }

    /**
     * The holder a {@code POST /leases} that passed {@link #check} is recorded as, in the table,
     * the slot map and the audit lines: in {@code aws_iam} mode the verified caller comes first
     * (the body's name is the caller's own word), in bearer mode the body's name alone.
     */
    String holderOf(ApiRequest request, String named) {
        return mode == LeaseAuthMode.AWS_IAM ? iamCaller(request) + " (" + named + ")" : named;
    }

    private static String iamCaller(ApiRequest request) {
        return request.iamCaller().filter(caller -> !caller.isBlank()).orElse("(none)");
    }
}
