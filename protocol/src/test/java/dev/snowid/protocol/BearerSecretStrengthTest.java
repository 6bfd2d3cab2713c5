package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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

class BearerSecretStrengthTest {

    private static final int RANDOM_SECRETS = 3_000;
    private static final int OPENSSL_RUNS = 150;

    @Test
    void thousandsOfRandomSecretsInOpensslsEncodingsPass() {
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < RANDOM_SECRETS; i++) {
            assertStrong(Base64.getEncoder().encodeToString(bytes(random, 32)), "openssl rand -base64 32");
            assertStrong(hex(bytes(random, 32)), "openssl rand -hex 32");
            assertStrong(hex(bytes(random, 16)), "openssl rand -hex 16 (exactly 128 bits)");
        }
        assertStrong("Qm9vM2xLcXh0T1pWbmRhWk", "22 base64 characters: 131 bits");
    }

    @Test
    void whatTheRealOpensslMakesPasses() throws Exception {
        for (String arguments : new String[] {"-base64 32", "-hex 32", "-hex 16"}) {
            List<String> secrets = openssl(arguments);
            assertEquals(OPENSSL_RUNS, secrets.size(), "openssl rand " + arguments + " printed " + secrets);
            for (String secret : secrets) {
                assertStrong(secret, "openssl rand " + arguments);
            }
        }
    }

    @Test
    void repeatsRunsAndShortAlphabetsAreRefused() {
        for (String weak : new String[] {"1111111111111111111111111111111111111111", "passwordpasswordpassword12",
            "abcdefabcdefabcdefabcdefabcdefab", "0123456789abcdef0123456789abcdef", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "abcdefghijklmnopqrstuvwxyz", "zyxwvutsrqponmlkjihgfedcba0123456789", "hunter2hunter2hunter2hunter2hunter2hunter2",
            "abababbbabaabbababbabaabababbbabababaabbabababababbbabababbbaaabab", // two letters, at random: 66 bits
            "Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3"}) {
            assertNotNull(BearerSecretStrength.weakness(weak), weak + ": " + BearerSecretStrength.estimatedBits(weak));
        }
    }

    @Test
    void shortOrNarrowSecretsAreRefused() {
        for (String weak : new String[] {"", "s", "s3cret", "cold-start", "0123456789abcdef0123456789abcde", // 124 bits of hex
            "Qm9vM2xLcXh0T1pWbmRhW", "12345678901234567890123456789012345678"}) {
            assertNotNull(BearerSecretStrength.weakness(weak), weak);
        }
        assertEquals(0, BearerSecretStrength.estimatedBits(""));
    }

    @Test
    void aPatternCostsWhatDescribesIt() {
        // 40 ones: one digit, then "the 39 before, again" (where: 0 bits, how long: log2 39), from a one-character alphabet.
        assertTrue(BearerSecretStrength.estimatedBits("1111111111111111111111111111111111111111") < 10);
        // The same random 32 hex digits twice carry the bits of once, plus where and how long.
        String once = "3f9c2b71e0a84d56c7b91e2f4a0d6c38";
        double single = BearerSecretStrength.estimatedBits(once);
        assertEquals(128.0, single, 1e-9, "random hex digits: 4 bits each");
        double twice = BearerSecretStrength.estimatedBits(once + once);
        assertTrue(twice > single && twice < single + 11, "twice: " + twice);
    }

    @Test
    void theRefusalNamesTheSettingAndHowToMakeOneNeverTheSecret() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> BearerSecretStrength.requireStrong("SNOWID_LEASE_SECRET", "hunter2-hunter"));
        assertTrue(refused.getMessage().startsWith("SNOWID_LEASE_SECRET is too weak"), refused.getMessage());
        assertTrue(refused.getMessage().contains("openssl rand -base64 32"), refused.getMessage());
        assertTrue(!refused.getMessage().contains("hunter2"), refused.getMessage());
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
