package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AcquisitionRequestTest {

    @Test
    void anIdIsAHexTokenWithAtLeastEightDifferentDigits() {
        for (String id : new String[] {"0123456789abcdef0123456789abcdef", "01234567012345670123456701234567",
            "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21"}) {
            assertTrue(AcquisitionRequest.isId(id), id);
        }
        for (String id : new String[] {"00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff",
            "deadbeefdeadbeefdeadbeefdeadbeef", "01234560123456012345601234560123", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb",
            null, "", "0123456789ABCDEF0123456789abcdef", "0123456789abcdef0123456789abcde"}) {
            assertFalse(AcquisitionRequest.isId(id), String.valueOf(id));
        }
        assertEquals("32 lower-case hex digits, at least 8 of them different", AcquisitionRequest.SHAPE);
    }

    @Test
    void aDrawnIdIsAlwaysAnId() {
        Set<String> drawn = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = AcquisitionRequest.drawId();
            assertTrue(AcquisitionRequest.isId(id), id);
            drawn.add(id);
        }
        assertEquals(10_000, drawn.size());
    }
}
