package dev.snowid.client.auth;

import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.function.Supplier;

/** {@code Authorization: Bearer <secret>}, the secret asked for on every request so that a rotated one is picked up. */
public final class BearerSecret implements RequestAuthorizer {

    private final Supplier<String> secret;

    public BearerSecret(Supplier<String> secret) {
        if (secret == null) {
            throw new IllegalArgumentException("secret is null: give the lease API's bearer secret");
        }
        this.secret = secret;
    }

    /**
     * @throws IllegalArgumentException the supplier gave no secret, or one a header cannot carry
     *         (HttpURLConnection's own refusal would quote the whole header, secret and all)
     */
    @Override
    public Map<String, String> headers(String method, URL url, byte[] body) {
        String value = secret.get();
        String trimmed = value == null ? "" : value.trim();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException("secret: the secret supplier gave " + (value == null ? "null" : "an empty secret"));
        }
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw new IllegalArgumentException("secret: character " + (i + 1) + " of the bearer secret is U+"
                        + String.format("%04X", (int) c) + ", which an HTTP header cannot carry; a secret is printable ASCII"
                        + " (openssl rand -base64 32 makes one)");
            }
        }
        return Collections.singletonMap("Authorization", "Bearer " + trimmed);
    }

    @Override
    public String describe() {
        return "a bearer secret";
    }

    /** A secret that does not change while the process runs (a builder's string, a command's environment). */
    public static Supplier<String> fixed(String secret) {
        return new Fixed(secret);
    }

    /** A class, not a lambda: its toString never shows the secret, and the agent's start-up path has no lambda. */
    private static final class Fixed implements Supplier<String> {
        private final String secret;

        Fixed(String secret) {
            this.secret = secret;
        }

        @Override
        public String get() {
            return secret;
        }

        @Override
        public String toString() {
            return "<secret, not shown>";
        }
    }
}
