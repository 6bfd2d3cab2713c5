package dev.snowid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlotTest {

    @Test
    void indexIsDatacenterTimes32PlusMachine() {
        for (int index = 0; index < Slot.COUNT; index++) {
            Slot slot = Slot.ofIndex(index);
            assertEquals(index, slot.datacenter() * 32 + slot.machine());
            assertEquals(slot, Slot.of(slot.datacenter(), slot.machine()));
            assertEquals(slot, Slot.parse(slot.toString()));
        }
    }

    @Test
    void parsesDatacenterColonMachine() {
        Slot slot = Slot.parse("7:13");
        assertEquals(7, slot.datacenter());
        assertEquals(13, slot.machine());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "7", "7:", ":13", "7:13:1", "a:1", "1:b", "-1:3", "7 :13", "1234:1", "7;13"})
    void rejectsMalformedNodesSayingWhatIsExpected(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Slot.parse(text));
        assertTrue(e.getMessage().contains("<datacenter>:<machine>"), e.getMessage());
    }

    @Test
    void rejectsOutOfRangeParts() {
        assertEquals("datacenter 32 is out of range: allowed 0 to 31",
                assertThrows(IllegalArgumentException.class, () -> Slot.parse("32:0")).getMessage());
        assertEquals("machine 40 is out of range: allowed 0 to 31",
                assertThrows(IllegalArgumentException.class, () -> Slot.parse("0:40")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Slot.ofIndex(1024));
    }
}
