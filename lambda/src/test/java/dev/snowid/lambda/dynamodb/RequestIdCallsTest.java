package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.RequestClaim;
import dev.snowid.lease.RequestIdConflictException;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.math.BigInteger;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An acquisition with a request id on each real engine, counted on the wire: the lookup is keyed
 * (the claim write, which returns the claim as stored, and on a retry one consistent GetItem of
 * the recorded slot), and an acquisition scans only to search for a free slot. Before request ids
 * were claims, every one of them began with a Scan for the id.
 */
@OnEveryEngine
class RequestIdCallsTest {

    private static final SlotPool POOL = SlotPool.of(0, 3, 0, 31);
    private static final String ID = "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21";

    @Test
    void aRequestIdCostsKeyedCallsAndNoScan(TestTable table) {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                .client(TestStores.clientSettings(table).interceptor(calls)).build()) {
            PooledLeaseSource source = new PooledLeaseSource(store, POOL, LeaseTerms.DEFAULT, WallClock.SYSTEM, "calls");

            Lease first = source.acquire("alice", ID);
            Map<String, Integer> acquired = calls.counts();
            calls.clear();
            Lease again = source.acquire("alice", ID);
            Map<String, Integer> retried = calls.counts();
            calls.clear();
            assertThrows(RequestIdConflictException.class, () -> source.acquire("mallory", ID));
            Map<String, Integer> refused = calls.counts();
            calls.clear();
            try (DynamoDbLeaseStore cold = TestStores.store(table, WallClock.SYSTEM)) {
                SdkCalls coldCalls = new SdkCalls();
                try (DynamoDbLeaseStore counted = DynamoDbLeaseStore.builder().table(table.name())
                        .client(TestStores.clientSettings(table).interceptor(coldCalls)).build()) {
                    // A pool nobody holds a slot of, so that the probe cannot collide.
                    new PooledLeaseSource(counted, SlotPool.of(4, 4, 0, 31), LeaseTerms.DEFAULT, WallClock.SYSTEM, "calls").acquire("bob", null);
                }
                System.out.printf("[snowid] SDK calls: first acquisition with a request id %s; its retry %s; the id from another"
                        + " holder %s; a first acquisition without an id %s%n", acquired, retried, refused, coldCalls.counts());
                assertEquals(Map.of("UpdateItem", 1), coldCalls.counts(), "without an id, the first probe takes an unheld slot: no Scan");
            }

            assertEquals(Map.of("UpdateItem", 3), acquired, "claim (which shows the store's clock), probe, record: no Scan");
            assertEquals(first + " " + first.owner(), again + " " + again.owner());
            assertEquals(Map.of("UpdateItem", 1, "GetItem", 1), retried, "the claim, then the recorded slot's item");
            assertEquals(Map.of("UpdateItem", 1), refused, "the claim only: nothing of alice's lease is read");
        }
    }

    @Test
    void aClaimsKeyIsNeverASlotsOrAMarkersAndTwoIdsThatShareOneAreTwoCallers(TestTable table) {
        for (String id : new String[] {"00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff", ID}) {
            String key = LeaseTableSchema.claimKey(id);
            assertTrue(key.startsWith("-") && key.length() <= 39, key + ": negative, at most 38 digits");
            assertEquals(OptionalInt.empty(), LeaseTableSchema.slotIndexOf(key));
            assertEquals(new BigInteger(id, 16).shiftRight(2), new BigInteger(key).negate().subtract(BigInteger.valueOf(1025)),
                    "126 bits kept");
            assertTrue(new BigInteger(key).compareTo(BigInteger.valueOf(LeaseTableSchema.markerKey(LeaseTableSchema.MARKER_KEYS - 1))) < 0,
                    key + ": below every marker's key");
        }
        assertEquals(OptionalInt.of(Slot.COUNT - 1), LeaseTableSchema.slotIndexOf("1023"));
        assertEquals(OptionalInt.empty(), LeaseTableSchema.slotIndexOf("1024"));

        // The last two bits are not in the key: the second id finds the first's claim, and is refused as another's.
        String first = "5f0c9e3a1b7d42c8e6a0f19b3d5c7e20";
        String second = "5f0c9e3a1b7d42c8e6a0f19b3d5c7e23";
        assertEquals(LeaseTableSchema.claimKey(first), LeaseTableSchema.claimKey(second));
        try (DynamoDbLeaseStore store = TestStores.store(table, WallClock.SYSTEM)) {
            store.claim(first, "alice", "0123456789abcdef0123456789abcdef", System.currentTimeMillis() + 60_000);
            RequestClaim found = store.claim(second, "alice", "fedcba9876543210fedcba9876543210", System.currentTimeMillis() + 60_000);
            assertEquals(first, found.requestId());
            PooledLeaseSource source = new PooledLeaseSource(store, POOL, LeaseTerms.DEFAULT, WallClock.SYSTEM, "calls");
            assertThrows(RequestIdConflictException.class, () -> source.acquire("alice", second));

            Map<String, AttributeValue> item = table.client().getItem(g -> g.tableName(table.name()).consistentRead(true)
                    .key(Map.of(LeaseTableSchema.SLOT, AttributeValue.fromN(LeaseTableSchema.claimKey(first))))).item();
            assertTrue(item.containsKey(LeaseTableSchema.TTL), "a claim is cleaned up by TTL: " + item.keySet());
            long ttl = Long.parseLong(item.get(LeaseTableSchema.TTL).n());
            long leaseEnd = System.currentTimeMillis() / 1000 + 60;
            assertTrue(ttl > leaseEnd && ttl < leaseEnd + 2 * 3600, "an hour after the lease it is for: " + ttl);
            assertTrue(!item.containsKey(LeaseTableSchema.OWNER) && !item.containsKey(LeaseTableSchema.EXPIRES_AT),
                    "none of a slot's attributes: " + item.keySet());
        }
    }
}
