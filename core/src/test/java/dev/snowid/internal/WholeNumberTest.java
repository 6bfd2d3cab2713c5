package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class WholeNumberTest {

    @Test
    void digitsOnly() {
        assertEquals(0, WholeNumber.parse("0").getAsLong());
        assertEquals(4096, WholeNumber.parse("4096").getAsLong());
        assertEquals(7, WholeNumber.parse("007").getAsLong());
        assertEquals(Long.MAX_VALUE, WholeNumber.parse("99999999999999999999").getAsLong(), "too long for a long: out of any range");
        assertEquals(Long.MAX_VALUE - 1, WholeNumber.parse("9223372036854775806").getAsLong(), "19 digits that fit are read exactly");
        assertEquals(42, WholeNumber.parse("00000000000000000000042").getAsLong(), "leading zeros are no overflow");
        for (String bad : new String[] {null, "", "+5", "-5", " 5", "5 ", "5.0", "1e3", "1_000", "1,000", "\u0665", "0x10"}) {
            assertFalse(WholeNumber.parse(bad).isPresent(), "'" + bad + "'");
        }
    }

    @Test
    void refusesSaysWhatWasTyped() {
        assertEquals(5, WholeNumber.parse("5", 1, 9));
        assertEquals("'+5' is not a whole number",
                assertThrows(IllegalArgumentException.class, () -> WholeNumber.parse("+5", 1, 9)).getMessage());
        assertEquals("'10' is out of range", assertThrows(IllegalArgumentException.class, () -> WholeNumber.parse("10", 1, 9)).getMessage());
        assertEquals("'0' is out of range", assertThrows(IllegalArgumentException.class, () -> WholeNumber.parse("0", 1, 9)).getMessage());
        assertEquals("'99999999999999999999' is out of range",
                assertThrows(IllegalArgumentException.class, () -> WholeNumber.parse("99999999999999999999", 0, Long.MAX_VALUE - 1))
                        .getMessage());
        assertEquals("'9223372036854775808' is out of range",
                assertThrows(IllegalArgumentException.class, () -> WholeNumber.parse("9223372036854775808", 0, Long.MAX_VALUE))
                        .getMessage(), "one more than a long holds is out of the widest range");
        assertEquals(Long.MAX_VALUE, WholeNumber.parse("09223372036854775807", 0, Long.MAX_VALUE));
    }
}
