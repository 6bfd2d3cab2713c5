package dev.snowid.lambda.api;

import dev.snowid.lambda.settings.FunctionSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Optional;

/**
 * The one check of {@code Authorization: Bearer <secret>}, for the lease routes in bearer mode
 * ({@link LeaseRouteAuth}) and for the gateway's authorizer in front of them
 * ({@code LeaseAuthorizerHandler}). Only SHA-256 digests are held: the current secret's and, during
 * a rotation, the next one's; either opens. Digests are compared in constant time, and always
 * against every configured digest, so the timing says nothing about how much of a guess was
 * right, or which secret it was. No answer of it quotes what was presented.
 */
public final class BearerSecretCheck {

    private static final String SCHEME = "bearer ";

    private final List<byte[]> secretHashes;

    public BearerSecretCheck(List<byte[]> secretHashes) {
        this.secretHashes = List.copyOf(secretHashes);
    }

    /** Why {@code authorization} (the header's value, if any) opens nothing; empty when it shows a configured secret. */
    public Optional<String> refusal(Optional<String> authorization) {
        if (secretHashes.isEmpty()) {
            return Optional.of("this function has no lease secret configured (" + FunctionSettings.LEASE_SECRET_SHA256
                    + " is unset), so its lease routes admit nobody; set it to the hex SHA-256 of a secret and send "
                    + "'Authorization: Bearer <secret>'");
        }
        if (authorization.isEmpty()) {
            return Optional.of("no Authorization header: the lease routes need 'Authorization: Bearer <secret>'");
        }
        String header = authorization.get();
        if (!header.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
            return Optional.of("the Authorization header is not 'Bearer <secret>'");
        }
        // Trimmed before it is judged: "Bearer " with only spaces or control characters after it presents nothing.
        String secret = header.substring(SCHEME.length()).trim();
        if (secret.isEmpty()) {
            return Optional.of("the Authorization header is 'Bearer ' with no secret after it");
        }
        byte[] presented = sha256(secret);
        boolean matched = false;
        for (byte[] hash : secretHashes) {
            matched |= MessageDigest.isEqual(presented, hash); // no early exit: every digest is compared
        }
        return matched ? Optional.empty() : Optional.of("the bearer secret is wrong");
    }

    public static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
