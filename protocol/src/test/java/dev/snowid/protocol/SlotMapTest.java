package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.SlotPool;
import dev.snowid.region.Block;
import dev.snowid.region.Claimant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlotMapTest {

    private static final long NOW = 1_700_000_000_000L;

    @Test
    void countsOnlyLeasesInForceAndListsThemByPartInSlotOrder() {
        SlotPool pool = SlotPool.parse("0-3", "0-31");
        Map<String, List<Slot>> parts = new LinkedHashMap<>();
        parts.put("function", pool.first(96).slots());
        parts.put("agents", pool.last(32).slots());
        List<HeldSlot> rows = Arrays.asList(
                new HeldSlot(Slot.of(3, 1), "orders host-b", 7, NOW - 60_000, NOW + 30_000),
                new HeldSlot(Slot.of(0, 4), "fn/stream-1", 2, 0, NOW + 50_000),
                new HeldSlot(Slot.of(3, 0), "orders host-a", 4, 0, NOW + 10_000),
                new HeldSlot(Slot.of(1, 0), "ran out", 9, 0, NOW - 1),
                new HeldSlot(Slot.of(7, 0), "outside the pool", 1, 0, NOW + 10_000));

        SlotMap map = SlotMap.read(SlotMap.of(NOW, 60_000, parts, rows).toJson());

        assertEquals(NOW, map.now());
        assertEquals(60_000, map.leaseMillis());
        SlotMap.Part function = map.parts().get(0);
        SlotMap.Part agents = map.parts().get(1);
        assertEquals("function", function.name());
        assertEquals(96, function.size());
        assertEquals(1, function.held());
        assertEquals(95, function.free());
        assertEquals(Long.valueOf(NOW + 50_000), function.earliestExpiry());
        assertEquals(pool.last(32).slots(), agents.slots());
        assertEquals(2, agents.held());
        assertEquals(Long.valueOf(NOW + 10_000), agents.earliestExpiry());
        assertEquals(3, map.leases().size());
        assertEquals(Slot.of(0, 4), map.leases().get(0).lease().slot());
        assertEquals("function", map.leases().get(0).part());
        assertEquals(Slot.of(3, 0), map.leases().get(1).lease().slot());
        assertEquals("orders host-b", map.leases().get(2).lease().holder());
        assertEquals(NOW - 60_000, map.leases().get(2).lease().floor());
    }

    @Test
    void aPartWithNothingHeldHasNoEarliestExpiry() {
        Map<String, List<Slot>> parts = new LinkedHashMap<>();
        parts.put("shared", SlotPool.of(2, 2, 0, 15).slots());
        String json = SlotMap.of(NOW, 60_000, parts, Arrays.<HeldSlot>asList()).toJson();
        assertEquals("{\"now\":" + NOW + ",\"leaseMillis\":60000,\"parts\":[{\"part\":\"shared\",\"size\":16,\"held\":0,\"free\":16,"
                + "\"earliestExpiry\":null,\"slots\":\"64-79\"}],\"leases\":[]}", json);
        assertNull(SlotMap.read(json).parts().get(0).earliestExpiry());
    }

    @Test
    void theJsonNeverCarriesAnOwnerField() {
        Map<String, List<Slot>> parts = new LinkedHashMap<>();
        parts.put("shared", SlotPool.of(0, 0, 0, 1).slots());
        String json = SlotMap.of(NOW, 60_000, parts, Arrays.asList(new HeldSlot(Slot.of(0, 1), "h", 1, 0, NOW + 1))).toJson();
        assertFalse(json.contains("\"" + LeaseFields.OWNER + "\""), json);
    }

    @Test
    void malformedMapsAreRefusedSayingWhat() {
        assertThrows(IllegalArgumentException.class, () -> SlotMap.read("{\"now\":1,\"leaseMillis\":1,\"parts\":[]}"));
        assertThrows(IllegalArgumentException.class, () -> SlotMap.read("{\"now\":1,\"leaseMillis\":1,\"parts\":[[]],\"leases\":[]}"));
        IllegalArgumentException ranges = assertThrows(IllegalArgumentException.class, () -> SlotMap.read(
                "{\"now\":1,\"leaseMillis\":1,\"parts\":[{\"part\":\"x\",\"held\":0,\"slots\":\"5-1\"}],\"leases\":[]}"));
        assertEquals("slot range '5-1' is reversed", ranges.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SlotRanges.read("0-1024"));
        assertThrows(IllegalArgumentException.class, () -> WireJson.parse("{\"a\":[{}]}"), "plain parsing keeps refusing lists");
    }

    @Test
    void theRegionPartTravelsWithItsClaimsOrWithoutThemAndAnOlderServersMapHasNone() {
        Map<String, List<Slot>> parts = new LinkedHashMap<>();
        parts.put("shared", SlotPool.parse("4-7", "0-31").slots());
        SlotMap plain = SlotMap.of(NOW, 60_000, parts, Arrays.<HeldSlot>asList());
        assertNull(SlotMap.read(plain.toJson()).region(), "a map without the fields: a function before regions");

        RegionClaims guarded = new RegionClaims(Claimant.of("eu-west-1", "snowid"), "claimed", Arrays.asList(
                new RegionClaims.Row(Block.of(1), Claimant.of("eu-west-1", "snowid"), 0, NOW - 5),
                new RegionClaims.Row(Block.of(6), Claimant.of("us-east-1", "snowid-b"), NOW - 100, NOW - 50)));
        RegionClaims read = SlotMap.read(plain.withRegion(guarded).toJson()).region();
        assertEquals(Claimant.of("eu-west-1", "snowid"), read.self());
        assertEquals("claimed", read.guard());
        assertEquals(2, read.claims().size());
        assertEquals(Claimant.of("us-east-1", "snowid-b"), read.claimOf(Block.of(6)).claimant());
        assertEquals(NOW - 100, read.claimOf(Block.of(6)).from());
        assertNull(read.claimOf(Block.of(0)));

        RegionClaims lone = SlotMap.read(plain.withRegion(new RegionClaims(Claimant.of("local", "snowid"), RegionClaims.UNGUARDED, null))
                .toJson()).region();
        assertEquals(RegionClaims.UNGUARDED, lone.guard());
        assertNull(lone.claims());
    }
}
