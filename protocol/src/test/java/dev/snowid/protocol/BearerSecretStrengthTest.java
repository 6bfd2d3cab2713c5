package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class BearerSecretStrengthTest {

    @Test
    void whatOpensslRandMakesAlwaysPassesAndTwentyTwoBase64CharactersDo() {
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < 1_000; i++) {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            String secret = Base64.getEncoder().encodeToString(bytes); // openssl rand -base64 32
            assertNull(BearerSecretStrength.weakness(secret), secret);
        }
        assertNull(BearerSecretStrength.weakness("Qm9vM2xLcXh0T1pWbmRhWk"), "22 base64 characters: 131 bits");
        assertNull(BearerSecretStrength.weakness("0123456789abcdef0123456789abcdef"), "32 hex digits: 128 bits");
    }

    @Test
    void shortOrNarrowSecretsAreRefused() {
        for (String weak : new String[] {"", "s", "s3cret", "cold-start", "0123456789abcdef0123456789abcde", // 124 bits of hex
            "Qm9vM2xLcXh0T1pWbmRhW", "aaaaaaaaaaaaaaaaaaaaaaaaaa", "12345678901234567890123456789012345678"}) {
            assertNotNull(BearerSecretStrength.weakness(weak), weak);
        }
        assertEquals(0, BearerSecretStrength.estimatedBits(""));
    }

    @Test
    void theRefusalNamesTheSettingAndHowToMakeOneNeverTheSecret() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> BearerSecretStrength.requireStrong("SNOWID_LEASE_SECRET", "hunter2-hunter"));
        assertTrue(refused.getMessage().startsWith("SNOWID_LEASE_SECRET is too weak"), refused.getMessage());
        assertTrue(refused.getMessage().contains("openssl rand -base64 32"), refused.getMessage());
        assertTrue(!refused.getMessage().contains("hunter2"), refused.getMessage());
    }
}
