package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The lease protocol's conditions (docs/protocol.md) against each real engine. */
@OnEveryEngine
class DynamoDbLeaseStoreTest {

    private static final Slot SLOT = Slot.of(3, 17);
    private static final long T = 1_700_000_000_000L;

    private TestTable table;
    private DynamoDbLeaseStore store;

    @BeforeEach
    void newTable(TestTable table) {
        this.table = table;
        this.store = TestStores.store(table, WallClock.SYSTEM);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void firstAcquisitionOfASlotHasFenceOneAndFloorZero() {
        Lease lease = store.tryAcquire(SLOT, "a".repeat(32), "fn/stream-1", T, T + 1000).orElseThrow();

        assertEquals(SLOT, lease.slot());
        assertEquals(1, lease.fence());
        assertEquals(LeaseWindow.of(0, T + 1000), lease.window());
        Map<String, AttributeValue> item = item();
        assertEquals(String.valueOf(SLOT.index()), item.get("slot").n());
        assertEquals("a".repeat(32), item.get("owner").s());
        assertEquals("fn/stream-1", item.get("holder").s());
        assertEquals(String.valueOf((T + 1000) / 1000 + 7 * 24 * 3600), item.get("ttl").n());
    }

    @Test
    void aMalformedItemIsNamedBySlotAndAttributeNeverByItsOwnerToken() {
        String owner = "0123456789abcdef0123456789abcdef";
        table.client().putItem(p -> p.tableName(table.name()).item(Map.of(
                "slot", AttributeValue.fromN(Integer.toString(SLOT.index())), "owner", AttributeValue.fromS(owner),
                "fence", AttributeValue.fromN("1"), "expiresAt", AttributeValue.fromN(Long.toString(T + 1000)),
                "holder", AttributeValue.fromS("h"))));

        IllegalStateException malformed = assertThrows(IllegalStateException.class, () -> store.renew(SLOT, owner, 1, T + 2000));

        assertFalse(malformed.getMessage().contains(owner), malformed.getMessage());
        assertTrue(malformed.getMessage().contains("slot " + SLOT.index()) && malformed.getMessage().contains("'floor'"),
                malformed.getMessage());
    }

    @Test
    void aLiveLeaseIsNotTakenUntilItsExpiryHasPassed() {
        store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();

        assertEquals(Optional.empty(), store.tryAcquire(SLOT, "owner-b", "b", T + 999, T + 2000));
        assertEquals(Optional.empty(), store.tryAcquire(SLOT, "owner-b", "b", T + 1000, T + 2000));
        assertEquals("owner-a", item().get("owner").s());
    }

    @Test
    void takingOverAnExpiredLeaseBumpsTheFenceAndStartsAtTheOldExpiry() {
        store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();

        Lease second = store.tryAcquire(SLOT, "owner-b", "b", T + 1001, T + 5000).orElseThrow();
        Lease third = store.tryAcquire(SLOT, "owner-c", "c", T + 5001, T + 9000).orElseThrow();

        assertEquals(2, second.fence());
        assertEquals(LeaseWindow.of(T + 1000, T + 5000), second.window());
        assertEquals(3, third.fence());
        assertEquals(LeaseWindow.of(T + 5000, T + 9000), third.window());
    }

    @Test
    void renewalExtendsTheExpiryAndKeepsTheFloor() {
        store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();
        Lease second = store.tryAcquire(SLOT, "owner-b", "b", T + 2000, T + 3000).orElseThrow();

        Lease renewed = store.renew(SLOT, "owner-b", second.fence(), T + 8000);

        assertEquals(LeaseWindow.of(T + 1000, T + 8000), renewed.window());
        assertEquals(second.fence(), renewed.fence());
        assertEquals(String.valueOf(T + 8000), item().get("expiresAt").n());
        assertEquals(String.valueOf((T + 8000) / 1000 + 7 * 24 * 3600), item().get("ttl").n());
    }

    @Test
    void renewalNeverShortensTheStoredLease() {
        Lease lease = store.tryAcquire(SLOT, "owner-a", "a", T, T + 9000).orElseThrow();

        Lease renewed = store.renew(SLOT, "owner-a", lease.fence(), T + 4000);

        assertEquals(T + 9000, renewed.window().expiresAt());
        assertEquals(String.valueOf(T + 9000), item().get("expiresAt").n());
    }

    @Test
    void renewalWithAnotherOwnerOrAStaleFenceIsLost() {
        Lease first = store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();
        Lease second = store.tryAcquire(SLOT, "owner-b", "b", T + 2000, T + 3000).orElseThrow();

        LeaseLostException stale = assertThrows(LeaseLostException.class, () -> store.renew(SLOT, "owner-a", first.fence(), T + 9000));
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, "owner-b", first.fence(), T + 9000));
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, "owner-a", second.fence(), T + 9000));
        assertThrows(LeaseLostException.class, () -> store.renew(Slot.of(0, 0), "owner-b", second.fence(), T + 9000));
        assertTrue(stale.getMessage().contains("slot 3:17"), stale.getMessage());
        assertEquals(String.valueOf(T + 3000), item().get("expiresAt").n());
    }

    @Test
    void releaseFreesTheSlotAtOnceAndTheNextHolderStartsAfterTheLastIssuedMs() {
        store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();
        Lease lease = store.tryAcquire(SLOT, "owner-b", "b", T + 2000, T + 60_000).orElseThrow();

        store.release(SLOT, "owner-b", lease.fence(), T + 2500);

        assertFalse(item().containsKey("owner"));
        assertEquals(String.valueOf(T + 2501), item().get("expiresAt").n());
        Lease next = store.tryAcquire(SLOT, "owner-c", "c", T + 2600, T + 10_000).orElseThrow();
        assertEquals(LeaseWindow.of(T + 2501, T + 10_000), next.window());
        assertEquals(lease.fence() + 1, next.fence());
    }

    @Test
    void releaseWithNothingIssuedKeepsTheFloor() {
        store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();
        Lease lease = store.tryAcquire(SLOT, "owner-b", "b", T + 2000, T + 60_000).orElseThrow();

        store.release(SLOT, "owner-b", lease.fence(), 0);

        Lease next = store.tryAcquire(SLOT, "owner-c", "c", T + 2001, T + 10_000).orElseThrow();
        assertEquals(LeaseWindow.of(T + 1000, T + 10_000), next.window());
    }

    @Test
    void releaseNeverMovesTheExpiryBelowTheFloorOrAboveTheOldExpiry() {
        store.tryAcquire(SLOT, "owner-a", "a", T, T + 1000).orElseThrow();
        Lease below = store.tryAcquire(SLOT, "owner-b", "b", T + 2000, T + 60_000).orElseThrow();
        store.release(SLOT, "owner-b", below.fence(), T + 10);
        assertEquals(String.valueOf(T + 1000), item().get("expiresAt").n());

        Lease past = store.tryAcquire(SLOT, "owner-c", "c", T + 2000, T + 3000).orElseThrow();
        store.release(SLOT, "owner-c", past.fence(), T + 7000);
        assertEquals(String.valueOf(T + 3000), item().get("expiresAt").n());
        assertFalse(item().containsKey("owner"));
    }

    @Test
    void releaseByAnotherOwnerOrFenceIsLostAndARepeatedReleaseChangesNothing() {
        Lease lease = store.tryAcquire(SLOT, "owner-a", "a", T, T + 60_000).orElseThrow();

        assertThrows(LeaseLostException.class, () -> store.release(SLOT, "owner-x", lease.fence(), T + 5));
        assertThrows(LeaseLostException.class, () -> store.release(SLOT, "owner-a", lease.fence() + 1, 0));
        assertEquals("owner-a", item().get("owner").s());

        store.release(SLOT, "owner-a", lease.fence(), T + 5);
        Map<String, AttributeValue> released = item();
        store.release(SLOT, "owner-a", lease.fence(), T + 5); // a retry whose first answer was lost
        store.release(SLOT, "owner-a", lease.fence(), 0);
        assertEquals(released, item(), "a repeated release writes nothing");
        assertThrows(LeaseLostException.class, () -> store.release(SLOT, "owner-x", lease.fence(), T + 5));
        assertThrows(LeaseLostException.class, () -> store.renew(SLOT, "owner-a", lease.fence(), T + 90_000));
    }

    @Test
    void ownedExpiriesListsEverySlotWithAnOwnerExpiredOrNot() {
        Slot live = Slot.of(0, 1);
        Slot expired = Slot.of(0, 2);
        Slot released = Slot.of(31, 31);
        store.tryAcquire(live, "o1", "h", T, T + 60_000).orElseThrow();
        store.tryAcquire(expired, "o2", "h", T - 10_000, T - 5_000).orElseThrow();
        Lease toRelease = store.tryAcquire(released, "o3", "h", T, T + 60_000).orElseThrow();
        store.release(released, "o3", toRelease.fence(), T + 1);

        assertEquals(Map.of(live, T + 60_000, expired, T - 5_000), store.ownedExpiries());
    }

    @Test
    void anEmptyTableHasNoOwnedSlots() {
        assertEquals(Map.of(), store.ownedExpiries());
    }

    @Test
    void clockSkewComparesTheLocalClockWithTheStoresDateHeader() {
        WallClock sevenSecondsAhead = () -> System.currentTimeMillis() + 7_000;
        try (DynamoDbLeaseStore ahead = TestStores.store(table, sevenSecondsAhead)) {
            assertTrue(ahead.clockSkewMillis().isEmpty());
            assertTrue(store.clockSkewMillis().isEmpty());

            ahead.ownedExpiries();
            store.ownedExpiries();

            long skewAhead = ahead.clockSkewMillis().orElseThrow();
            long skewNone = store.clockSkewMillis().orElseThrow();
            // The Date header has 1 s resolution: the estimate is within about 0.5 s plus half a round trip.
            assertTrue(Math.abs(skewAhead - 7_000) < 1_500, "skew of a clock 7 s ahead: " + skewAhead);
            assertTrue(Math.abs(skewNone) < 1_500, "skew of the system clock: " + skewNone);
        }
    }

    private Map<String, AttributeValue> item() {
        return table.client().getItem(get -> get.tableName(table.name()).consistentRead(true)
                .key(Map.of("slot", AttributeValue.fromN(String.valueOf(SLOT.index()))))).item();
    }
}
