package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HexTokenTest {

    @Test
    void aDrawnTokenHasTheShapeItIsCheckedFor() {
        SecureRandom random = new SecureRandom();
        Set<String> drawn = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String token = HexToken.draw(random);
            assertTrue(HexToken.isToken(token), token);
            drawn.add(token);
        }
        assertEquals(10_000, drawn.size(), "128 random bits: no two alike");
    }

    @Test
    void onlyThirtyTwoLowerCaseHexDigitsAreAToken() {
        assertTrue(HexToken.isToken("0123456789abcdef0123456789abcdef"));
        for (String bad : new String[] {null, "", "0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcde",
            "0123456789abcdef0123456789abcdef0", "0123456789abcdef0123456789abcdeg", " 123456789abcdef0123456789abcdef"}) {
            assertFalse(HexToken.isToken(bad), "'" + bad + "'");
        }
        assertEquals("32 lower-case hex digits", HexToken.SHAPE);
    }
}
