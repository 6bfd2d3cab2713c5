package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.protocol.EmptySecretHash;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The secret rule every front end that holds a secret in clear applies: zxcvbn's guesses, at least 2^128. */
class BearerSecretStrengthTest {

    /** zxcvbn takes 15-50 ms a secret once warm: a hundred fresh ones of each kind stay within seconds (8,000 of each, once: base64 never below 2^137). */
    private static final int RANDOM_SECRETS = 100;
    private static final int OPENSSL_RUNS = 20;

    @Test
    void hundredsOfRandomSecretsInOpensslsEncodingsPass() {
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < RANDOM_SECRETS; i++) {
            assertStrong(Base64.getEncoder().encodeToString(bytes(random, 32)), "openssl rand -base64 32");
            assertStrong(hex(bytes(random, 32)), "openssl rand -hex 32");
        }
    }

    @Test
    void whatTheRealOpensslMakesPasses() throws Exception {
        for (String arguments : new String[] {"-base64 32", "-hex 32"}) {
            List<String> secrets = openssl(arguments);
            assertEquals(OPENSSL_RUNS, secrets.size(), "openssl rand " + arguments + " printed " + secrets);
            for (String secret : secrets) {
                assertStrong(secret, "openssl rand " + arguments);
            }
        }
    }

    /** Issue 32's list: each passed the hand-written estimate before zxcvbn. */
    @Test
    void guessableSecretsAreRefused() {
        for (String weak : new String[] {
            "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM", // keyboard walks
            "1q2w3e4r5t6y7u8i9o0p!Q@W#E$R%T^Y&U*I(O)P",
            "Password1!Password2!Password3!Password4!", // a word repeated with a counter
            "correcthorsebatterystaple2024", // dictionary words
            "2024-06-01T12:34:56.789+02:00 Europe/Berlin", // a date
            "bXktc2VjcmV0LXBhc3N3b3Jk", // base64 of "my-secret-password"
            EmptySecretHash.HEX, EmptySecretHash.HEX.toUpperCase(java.util.Locale.ROOT)}) {
            assertNotNull(BearerSecretStrength.weakness(weak), weak + ": " + BearerSecretStrength.estimatedBits(weak) + " bits");
        }
    }

    @Test
    void shortRepeatedOrNarrowSecretsAreRefused() {
        for (String weak : new String[] {"", "s", "s3cret", "cold-start", "1111111111111111111111111111111111111111",
            "passwordpasswordpassword12", "abcdefghijklmnopqrstuvwxyz", "hunter2hunter2hunter2hunter2hunter2hunter2",
            "Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3",
            "q7Lx2VbN9fR4mT8kZ3wH6jP1sD5gYcAe", // the README's old example: 32 alphanumerics, ~106 bits by zxcvbn's count
            "5c2565c75aefe7eb912b133ab3f3d290"}) { // openssl rand -hex 16: 128 bits drawn, but zxcvbn counts 10 a character
            assertNotNull(BearerSecretStrength.weakness(weak), weak);
        }
        assertEquals(0, BearerSecretStrength.estimatedBits(""));
    }

    @Test
    void theEmptyStringsHashIsRefusedAlthoughItsDigitsLookRandom() {
        assertTrue(BearerSecretStrength.estimatedBits(EmptySecretHash.HEX) >= BearerSecretStrength.MIN_BITS,
                "zxcvbn alone passes it, which is why the extra rule exists");
        String refusal = BearerSecretStrength.weakness(EmptySecretHash.HEX);
        assertTrue(refusal.startsWith("[weak_lease_secret] is the SHA-256 of the empty string"), refusal);
        assertFalse(refusal.contains(EmptySecretHash.HEX), refusal);
    }

    @Test
    void theRefusalNamesTheCodeTheSettingAndHowToMakeOneNeverTheSecret() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> BearerSecretStrength.requireStrong("SNOWID_LEASE_SECRET", "correcthorsebatterystaple2024"));
        assertTrue(refused.getMessage().startsWith("[weak_lease_secret] SNOWID_LEASE_SECRET is too weak"), refused.getMessage());
        assertTrue(refused.getMessage().contains("openssl rand -base64 32"), refused.getMessage());
        assertFalse(refused.getMessage().contains("correcthorse"), refused.getMessage());
    }

    private static void assertStrong(String secret, String made) {
        assertNull(BearerSecretStrength.weakness(secret), made + ": " + secret + " estimated at "
                + BearerSecretStrength.estimatedBits(secret) + " bits");
    }

    private static byte[] bytes(SecureRandom random, int count) {
        byte[] bytes = new byte[count];
        random.nextBytes(bytes);
        return bytes;
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            hex.append(Character.forDigit(b >> 4 & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return hex.toString();
    }

    /** {@code openssl rand <arguments>}, run {@value #OPENSSL_RUNS} times in one shell: one secret a line. */
    private static List<String> openssl(String arguments) throws IOException, InterruptedException {
        if (!onPath("openssl")) {
            fail("openssl is not on PATH: this test runs the real `openssl rand " + arguments + "` (install OpenSSL or LibreSSL)");
        }
        Path output = Files.createTempFile("openssl-rand-", ".txt");
        try {
            Process shell = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt " + OPENSSL_RUNS + " ]; do openssl rand " + arguments
                    + " || exit 1; i=$((i+1)); done").redirectErrorStream(true).redirectOutput(output.toFile()).start();
            if (!shell.waitFor(120, TimeUnit.SECONDS)) {
                shell.destroyForcibly();
                fail("openssl rand " + arguments + " x " + OPENSSL_RUNS + " did not finish within 120 s");
            }
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertEquals(0, shell.exitValue(), "openssl rand " + arguments + ": " + lines);
            List<String> secrets = new ArrayList<>();
            for (String line : lines) {
                if (!line.trim().isEmpty()) {
                    secrets.add(line.trim());
                }
            }
            return secrets;
        } finally {
            Files.deleteIfExists(output);
        }
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        for (String folder : path == null ? new String[0] : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(folder, command))) {
                return true;
            }
        }
        return false;
    }
}
