package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class NumberRangeTest {

    private final NumberRange lease = NumberRange.of(5_000, 3_600_000, "ms");

    @Test
    void saysItsBoundsInWordsAndChecksThem() {
        assertEquals("a whole number from 5000 to 3600000 (ms)", lease.allowed());
        assertEquals(5_000, lease.check("leaseMillis", 5_000));
        assertEquals("leaseMillis 4999 is out of range: allowed 5000 to 3600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> lease.check("leaseMillis", 4_999)).getMessage());
        assertEquals("a whole number from 0 to 31", NumberRange.of(0, 31, "").allowed());
    }

    @Test
    void readsTypedTextByTheWholeNumberRule() {
        assertEquals(3_600_000L, lease.parse("3600000"));
        assertEquals("'4999' is out of range; allowed a whole number from 5000 to 3600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> lease.parse("4999")).getMessage());
        assertEquals("'1m' is not a whole number; allowed a whole number from 5000 to 3600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> lease.parse("1m")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> NumberRange.of(2, 1, ""), "an empty range is a programming error");
    }
}
