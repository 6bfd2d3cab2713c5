package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lease.Lease;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The rows the runner compares after a restart, read from the real engine the store writes to. */
@ExtendWith(DynamoDbEngine.class)
class LeaseCensusTest {

    @Test
    void aTableThatKeptItsRowsLostNothingAndOneThatLostARowNamesIt(TestTable table) {
        long now = System.currentTimeMillis();
        Lease lost;
        try (DynamoDbLeaseStore store = TestStores.store(table, System::currentTimeMillis)) {
            store.tryAcquire(Slot.of(0, 1), "a".repeat(32), "census test", now, now + 30_000).orElseThrow();
            lost = store.tryAcquire(Slot.of(0, 2), "b".repeat(32), "census test", now, now + 60_000).orElseThrow();
        }
        LeaseCensus before = LeaseCensus.take(table.client(), table.name());
        assertEquals(2, before.rows(), before::toString);
        assertEquals(lost.window().expiresAt(), before.latestExpiry());
        assertEquals(List.of(), LeaseCensus.take(table.client(), table.name()).lossesSince(before));

        table.client().deleteItem(d -> d.tableName(table.name())
                .key(Map.of(LeaseTableSchema.SLOT, AttributeValue.fromN(Integer.toString(lost.slot().index())))));

        List<String> losses = LeaseCensus.take(table.client(), table.name()).lossesSince(before);
        assertEquals(List.of("slot " + lost.slot().index() + " (fence " + lost.fence() + ") is gone"), losses);
    }

    @Test
    void theClaimsOfAcquisitionIdsAreNotLeaseRows(TestTable table) {
        long now = System.currentTimeMillis();
        try (DynamoDbLeaseStore store = TestStores.store(table, System::currentTimeMillis)) {
            store.claim("5f0c9e3a1b7d42c8e6a0f19b3d5c7e21", "census test", "d".repeat(32), now + 60_000);
            store.claim("00000000000000000000000000000000", "census test", "e".repeat(32), now + 60_000);
            store.tryAcquire(Slot.of(0, 3), "d".repeat(32), "census test", now, now + 30_000, "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21")
                    .orElseThrow();
        }
        LeaseCensus census = LeaseCensus.take(table.client(), table.name());
        assertEquals(1, census.rows(), census::toString);
        assertEquals(now + 30_000, census.latestExpiry());
        assertEquals("1 lease rows, fences {" + Slot.of(0, 3).index() + "=1}", census.toString());
    }

    @Test
    void aFenceThatWentBackIsALoss(TestTable table) {
        try (DynamoDbLeaseStore store = TestStores.store(table, System::currentTimeMillis)) {
            long now = System.currentTimeMillis();
            store.tryAcquire(Slot.of(1, 1), "c".repeat(32), "census test", now, now + 60_000).orElseThrow();
        }
        int slot = Slot.of(1, 1).index();
        LeaseCensus before = LeaseCensus.take(table.client(), table.name());

        // What a restore from an older backup does to a row.
        table.client().updateItem(u -> u.tableName(table.name())
                .key(Map.of(LeaseTableSchema.SLOT, AttributeValue.fromN(Integer.toString(slot))))
                .updateExpression("SET #f = :f").expressionAttributeNames(Map.of("#f", LeaseTableSchema.FENCE))
                .expressionAttributeValues(Map.of(":f", AttributeValue.fromN("0"))));

        List<String> losses = LeaseCensus.take(table.client(), table.name()).lossesSince(before);
        assertEquals(1, losses.size(), losses::toString);
        assertTrue(losses.get(0).contains("fence went back from 1 to 0"), losses::toString);
    }
}
