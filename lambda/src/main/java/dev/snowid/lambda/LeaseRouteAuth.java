package dev.snowid.lambda;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * Guards the lease routes. A request passes when API Gateway has verified the caller's IAM
 * signature (the template's {@code LeaseAuth=AWS_IAM}: the {@code Authorization} header then
 * carries SigV4, not a secret), or when it shows {@code Authorization: Bearer <secret>}. The
 * function holds only the secret's SHA-256 ({@value FunctionSettings#LEASE_SECRET_SHA256});
 * digests are compared in constant time, so the answer's timing says nothing about how much of
 * a guess was right.
 */
final class LeaseRouteAuth {

    private static final String SCHEME = "bearer ";

    private final byte[] secretSha256;

    LeaseRouteAuth(Optional<byte[]> secretSha256) {
        this.secretSha256 = secretSha256.orElse(null);
    }

    void check(ApiRequest request) {
        if (request.iamCaller().isPresent()) {
            return;
        }
        if (secretSha256 == null) {
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
        if (!MessageDigest.isEqual(presented, secretSha256)) {
            throw ApiError.unauthorized("the bearer secret is wrong");
        }
    }

    static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
