package dev.snowid.lambda.api;

import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.ApiRequest;
import dev.snowid.lambda.settings.FunctionSettings.LeaseAuth;
import dev.snowid.lambda.settings.FunctionSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;

/**
 * Guards the lease routes, in one of two modes ({@value FunctionSettings#LEASE_AUTH}).
 *
 * <p>{@code bearer}: the request shows {@code Authorization: Bearer <secret>}. The function holds
 * only SHA-256 digests: the current secret's and, during a rotation, the next one's; either opens
 * the routes. Digests are compared in constant time, and always against every configured digest,
 * so the answer's timing says nothing about how much of a guess was right, or which secret it was.
 * A caller identity in the request context counts for nothing here: anyone allowed to invoke the
 * function directly can write one.
 *
 * <p>{@code aws_iam}: API Gateway verified the caller's SigV4 signature before invoking the
 * function (the template's {@code LeaseAuth=AWS_IAM}) and put the caller's ARN into the request
 * context; a blank ARN is no caller.
 */
public final class LeaseRouteAuth {

    private static final String SCHEME = "bearer ";

    private final LeaseAuth mode;
    private final List<byte[]> secretHashes;

    public LeaseRouteAuth(LeaseAuth mode, List<byte[]> secretHashes) {
        this.mode = mode;
        this.secretHashes = List.copyOf(secretHashes);
    }

    void check(ApiRequest request) {
        if (mode == LeaseAuth.AWS_IAM) {
            if (request.iamCaller().filter(arn -> !arn.isBlank()).isPresent()) {
                return;
            }
            if (secretHashes.isEmpty()) {
                throw ApiError.unauthorized("the lease routes of this function admit only callers API Gateway verified with IAM (SigV4); "
                        + "this request carries no IAM caller: sign it with credentials allowed execute-api:Invoke");
            }
        }
        if (secretHashes.isEmpty()) {
            throw ApiError.unauthorized("this function has no lease secret configured (" + FunctionSettings.LEASE_SECRET_SHA256
                    + " is unset), so its lease routes admit nobody; set it to the hex SHA-256 of a secret and send "
                    + "'Authorization: Bearer <secret>'");
        }
        String header = request.header("authorization").orElseThrow(() -> ApiError.unauthorized(
                "no Authorization header: the lease routes need 'Authorization: Bearer <secret>'"));
        if (header.length() <= SCHEME.length() || !header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            throw ApiError.unauthorized("the Authorization header is not 'Bearer <secret>'");
        }
        byte[] presented = sha256(header.substring(SCHEME.length()).trim());
        boolean matched = false;
        for (byte[] hash : secretHashes) {
            matched |= MessageDigest.isEqual(presented, hash); // no early exit: every digest is compared
        }
        if (!matched) {
            throw ApiError.unauthorized("the bearer secret is wrong");
        }
    }

    /**
     * Who a request that passed {@link #check} is, for the audit lines: the IAM caller in
     * {@code aws_iam} mode, else a bearer of the secret (a request context's caller counts for
     * nothing in bearer mode, so it is not written either).
     */
    String callerOf(ApiRequest request) {
        if (mode == LeaseAuth.AWS_IAM) {
            Optional<String> arn = request.iamCaller().filter(caller -> !caller.isBlank());
            if (arn.isPresent()) {
                return "IAM caller " + arn.get();
            }
        }
        return "bearer of the lease secret";
    }

    public static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
