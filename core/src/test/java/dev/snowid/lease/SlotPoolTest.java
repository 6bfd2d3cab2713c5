package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SlotPoolTest {

    @Test
    void rangesMultiplyIntoSlotsInTableOrder() {
        SlotPool pool = SlotPool.parse("0-3", "0-31");
        assertEquals(128, pool.size());
        List<Slot> slots = pool.slots();
        assertEquals(Slot.of(0, 0), slots.get(0));
        assertEquals(Slot.of(3, 31), slots.get(127));
        assertEquals(128, new HashSet<>(slots).size());
        for (int i = 1; i < slots.size(); i++) {
            assertTrue(slots.get(i - 1).index() < slots.get(i).index());
        }
    }

    @Test
    void aSingleNumberIsARangeOfOne() {
        SlotPool pool = SlotPool.parse("5", " 7 ");
        assertEquals(List.of(Slot.of(5, 7)), pool.slots());
        assertEquals("datacenters 5 x machines 7 (1 slot)", pool.toString());
    }

    @Test
    void containsOnlyItsOwnSlots() {
        SlotPool pool = SlotPool.of(2, 3, 10, 12);
        assertEquals(6, pool.size());
        assertTrue(pool.contains(Slot.of(2, 10)));
        assertTrue(pool.contains(Slot.of(3, 12)));
        assertFalse(pool.contains(Slot.of(1, 10)));
        assertFalse(pool.contains(Slot.of(4, 10)));
        assertFalse(pool.contains(Slot.of(2, 9)));
        assertFalse(pool.contains(Slot.of(2, 13)));
        assertFalse(pool.contains(null));
        assertEquals("datacenters 2-3 x machines 10-12 (6 slots)", pool.toString());
    }

    @Test
    void theWholeFormatIsOnePool() {
        assertEquals(Slot.COUNT, SlotPool.parse("0-31", "0-31").size());
    }

    @Test
    void theSlotListCannotBeChanged() {
        assertThrows(UnsupportedOperationException.class, () -> SlotPool.of(0, 0, 0, 1).slots().clear());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "32", "0-32", "3-2", "-1", "1-", "-", "a", "0-3-5", "0..3", "007", "1.5", "+1", "99999999999"})
    void badDatacenterRangesAreNamedWithTheValueAndWhatIsAllowed(String value) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> SlotPool.parse(value, "0-31"));
        assertTrue(error.getMessage().startsWith("datacenter range"), error.getMessage());
        assertTrue(error.getMessage().contains("'" + value.trim() + "'") || value.trim().isEmpty(), error.getMessage());
        assertTrue(error.getMessage().contains("0 to 31") && error.getMessage().contains("a-b"), error.getMessage());
    }

    @Test
    void badMachineRangesAreNamedToo() {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> SlotPool.parse("0-3", "10-40"));
        assertTrue(error.getMessage().startsWith("machine range '10-40'"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SlotPool.parse("0-3", null));
    }

    @ParameterizedTest
    @CsvSource({"-1,0,0,0", "0,32,0,0", "3,2,0,0", "0,0,-1,0", "0,0,0,32", "0,0,5,4"})
    void ofRejectsRangesOutsideTheFormat(int firstDatacenter, int lastDatacenter, int firstMachine, int lastMachine) {
        assertThrows(IllegalArgumentException.class, () -> SlotPool.of(firstDatacenter, lastDatacenter, firstMachine, lastMachine));
    }

    @Test
    void firstAndLastSplitThePoolIntoPartsThatShareNoSlot() {
        SlotPool pool = SlotPool.parse("0-3", "0-31");
        SlotPool function = pool.first(96);
        SlotPool agents = pool.last(32);
        assertEquals(96, function.size());
        assertEquals(32, agents.size());
        for (Slot slot : pool.slots()) {
            assertTrue(function.contains(slot) ^ agents.contains(slot), slot + " is in exactly one part");
        }
        assertEquals(Slot.of(3, 0), agents.slots().get(0));
        assertFalse(agents.contains(Slot.of(4, 0)), "a part holds nothing outside its pool");
        assertEquals("slots 3:0 to 3:31 of datacenters 0-3 x machines 0-31 (32 slots)", agents.toString());
    }

    @Test
    void aPartHoldsAtLeastOneAndAtMostEverySlot() {
        SlotPool pool = SlotPool.of(0, 0, 0, 1);
        assertThrows(IllegalArgumentException.class, () -> pool.first(0));
        assertThrows(IllegalArgumentException.class, () -> pool.last(3));
        assertEquals(pool.slots(), pool.last(2).slots());
    }
}
