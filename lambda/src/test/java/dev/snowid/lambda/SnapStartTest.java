package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * SnapStart: one initialised environment is snapshotted and restored into many. The clones
 * start with the same memory, so whatever lease the snapshot holds, all of them hold; the
 * CRaC hooks must make each one lease its own slot before it issues.
 */
@ExtendWith(DynamoDbEngine.class)
class SnapStartTest {

    private static final int IDS_PER_CLONE = 4096;

    @Test
    void clonesOfASnapshotThatHeldALeaseGetDifferentSlotsAndDisjointIds(TestTable table) {
        FunctionSettings settings = FunctionSettings.from(Functions.environment(table));
        try (DynamoDbLeaseStore store = TestStores.store(table, WallClock.SYSTEM)) {
            PooledLeaseSource pool = new PooledLeaseSource(store, settings.pool(), settings.leaseTerms(), WallClock.SYSTEM, "snapshot");
            // The lease in the snapshot's memory: taken before the checkpoint (a primed function
            // whose release did not get through), so it is still live in the table.
            Lease inSnapshot = pool.acquire();

            SnowidHandler clone1 = clone(settings, store, pool, inSnapshot);
            SnowidHandler clone2 = clone(settings, store, pool, inSnapshot);
            // Both clones hold the snapshot's lease, as restored memory would.
            assertEquals(inSnapshot.slot(), firstId(clone1).slot());
            assertEquals(inSnapshot.slot(), firstId(clone2).slot());

            assertTrue(store.clockSkewMillis().isPresent(), "the snapshot had talked to the store");
            clone1.snapStartHooks().afterRestore(null);
            assertTrue(store.clockSkewMillis().isEmpty(), "a skew measured before the snapshot is another machine's clock");
            clone2.snapStartHooks().afterRestore(null);

            List<String> ids1 = ids(clone1);
            List<String> ids2 = ids(clone2);
            Slot slot1 = SnowflakeCodec.TWITTER.parse(ids1.get(0)).slot();
            Slot slot2 = SnowflakeCodec.TWITTER.parse(ids2.get(0)).slot();
            assertNotEquals(slot1, slot2, "each clone leased its own slot after the restore");
            assertNotEquals(inSnapshot.slot(), slot1, "the snapshot's lease is not used after the restore");
            assertNotEquals(inSnapshot.slot(), slot2, "the snapshot's lease is not used after the restore");

            Set<String> all = new HashSet<>();
            all.addAll(ids1);
            all.addAll(ids2);
            assertEquals(2 * IDS_PER_CLONE, all.size(), "no ID issued twice across the clones");
            for (String id : ids1) {
                assertEquals(slot1, SnowflakeCodec.TWITTER.parse(id).slot());
            }
            for (String id : ids2) {
                assertEquals(slot2, SnowflakeCodec.TWITTER.parse(id).slot());
            }

            Set<String> owners = new HashSet<>();
            for (Map<String, AttributeValue> item : table.client().scan(s -> s.tableName(table.name())).items()) {
                owners.add(item.get(LeaseTableSchema.OWNER).s());
            }
            assertEquals(3, owners.size(), "three live leases with three owner tokens: the snapshot's and one per clone");
        }
    }

    @Test
    void checkpointReleasesTheLeaseAndTheRestoredEnvironmentStartsAfterItsLastId(TestTable table) {
        try (Functions.Function function = Functions.function(table)) {
            List<String> before = ids(function.handler());
            long lastBefore = SnowflakeCodec.TWITTER.parse(before.get(before.size() - 1)).unixMillis();

            function.handler().snapStartHooks().beforeCheckpoint(null);
            Map<String, AttributeValue> released = table.client().scan(s -> s.tableName(table.name())).items().get(0);
            assertFalse(released.containsKey(LeaseTableSchema.OWNER), "released: no owner in " + released);
            assertEquals(lastBefore + 1, Long.parseLong(released.get(LeaseTableSchema.EXPIRES_AT).n()),
                    "free from the ms after the last ID");

            function.handler().snapStartHooks().afterRestore(null);
            List<String> after = ids(function.handler());
            long firstAfter = SnowflakeCodec.TWITTER.parse(after.get(0)).unixMillis();
            assertTrue(firstAfter > lastBefore, "restored IDs start after the snapshot's last one");
            assertTrue(function.log().stream().anyMatch(l -> l.contains("afterRestore")), "the hooks say what they did");
        }
    }

    @Test
    void aReleaseThatFailsBeforeTheCheckpointOrAtCloseIsAWarningUnderItsCode(TestTable table) {
        FunctionSettings settings = FunctionSettings.from(Functions.environment(table));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DynamoDbLeaseStore store = TestStores.store(table, WallClock.SYSTEM)) {
            PooledLeaseSource pool = new PooledLeaseSource(store, settings.pool(), settings.leaseTerms(), WallClock.SYSTEM, "function");
            LeaseSource unreleasable = new LeaseSource() {
                @Override
                public Lease acquire() {
                    return pool.acquire();
                }

                @Override
                public Lease renew(Lease lease) {
                    return pool.renew(lease);
                }

                @Override
                public void release(Lease lease, long lastIssuedMillis) {
                    throw new LeaseStoreUnavailableException("the table did not answer", 1_000, null);
                }
            };
            SnowidHandler handler = SnowidHandler.builder(settings).store(store).ownLeases(unreleasable)
                    .logTo(new PrintStream(out, true, StandardCharsets.UTF_8)).build();
            firstId(handler);
            handler.snapStartHooks().beforeCheckpoint(null);
            handler.snapStartHooks().afterRestore(null);
            firstId(handler); // a lease again, for close to fail to release
            handler.close();
        }
        List<String> warnings = out.toString(StandardCharsets.UTF_8).lines().filter(l -> l.contains("\"level\":\"WARN\"")).toList();
        assertEquals(2, warnings.size(), warnings::toString);
        assertTrue(warnings.get(0).contains("\"message\":\"[lease_release_failed] beforeCheckpoint: lease not released"), warnings.get(0));
        assertTrue(warnings.get(1).contains("\"message\":\"[lease_release_failed] lease not released on close"), warnings.get(1));
        warnings.forEach(w -> assertTrue(w.contains("\"warning_code\":\"lease_release_failed\""), w));
    }

    private static SnowidHandler clone(FunctionSettings settings, DynamoDbLeaseStore store, PooledLeaseSource pool, Lease inSnapshot) {
        return SnowidHandler.builder(settings).store(store).ownLeases(new SnapshotMemory(inSnapshot, pool))
                .logTo(new PrintStream(new ByteArrayOutputStream())).build();
    }

    private static dev.snowid.SnowflakeId firstId(SnowidHandler handler) {
        Invocation answer = Invocation.of(handler, TestEvents.get("/ids").v2());
        assertEquals(200, answer.status(), answer::toString);
        return SnowflakeCodec.TWITTER.parse(answer.ids().get(0));
    }

    private static List<String> ids(SnowidHandler handler) {
        Invocation answer = Invocation.of(handler, TestEvents.get("/ids").query("count=" + IDS_PER_CLONE).v2());
        assertEquals(200, answer.status(), answer::toString);
        return answer.ids();
    }

    /** A clone's memory: its first lease is the one the snapshot held; after that, the pool. */
    private static final class SnapshotMemory implements LeaseSource {
        private final PooledLeaseSource pool;
        private Lease remembered;

        SnapshotMemory(Lease remembered, PooledLeaseSource pool) {
            this.remembered = remembered;
            this.pool = pool;
        }

        @Override
        public Lease acquire() {
            Lease lease = remembered;
            remembered = null;
            return lease != null ? lease : pool.acquire();
        }

        @Override
        public Lease renew(Lease lease) {
            return pool.renew(lease);
        }

        @Override
        public void release(Lease lease, long lastIssuedMillis) {
            pool.release(lease, lastIssuedMillis);
        }
    }
}
