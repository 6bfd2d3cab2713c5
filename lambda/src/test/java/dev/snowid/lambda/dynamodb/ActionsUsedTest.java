package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.RequestClaim;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.Claimant;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The function's IAM policy grants LeaseTableSchema.ACTIONS_USED: the store must call nothing else. */
@ExtendWith(DynamoDbEngine.class)
class ActionsUsedTest {

    @Test
    void everyPathOfTheStoreCallsOnlyTheActionsThePolicyGrants(TestTable table) {
        SdkCalls calls = new SdkCalls();
        long now = System.currentTimeMillis();
        Slot slot = Slot.of(2, 5);
        try (DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name()).clock(WallClock.SYSTEM)
                .client(TestStores.clientSettings(table).interceptor(calls)).build()) {
            Lease lease = store.tryAcquire(slot, "a", "h", now, now + 60_000).orElseThrow();
            store.tryAcquire(slot, "b", "h", now, now + 60_000);
            lease = store.renew(slot, "a", lease.fence(), now + 90_000);
            store.renew(slot, "a", lease.fence(), now + 30_000);
            assertThrows(LeaseLostException.class, () -> store.renew(slot, "b", 1, now + 90_000));
            store.ownedExpiries();
            store.release(slot, "a", lease.fence(), now + 200_000);
            for (long lastIssued : new long[] {0, now + 5, now - 1}) {
                Lease next = store.tryAcquire(slot, "c", "h", now + 300_000, now + 360_000).orElseThrow();
                store.release(slot, "c", next.fence(), lastIssued);
            }
            assertThrows(LeaseLostException.class, () -> store.release(slot, "c", 99, now));
            // An acquisition id's claim: claimed, recorded, answered again, recorded again after a retry.
            String id = "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21";
            RequestClaim claim = store.claim(id, "h", "d", now + 60_000);
            Lease granted = store.tryAcquire(Slot.of(2, 6), "d", "h", now, now + 60_000, id).orElseThrow();
            assertTrue(store.recordGrant(claim, granted));
            assertTrue(store.grantedFor(store.claim(id, "h", "e", now + 60_000), now).isPresent());
            assertFalse(store.recordGrant(claim, granted));
            // The claim markers of dev.snowid.region live in this table too.
            ClaimMarkers markers = store.claimMarkers();
            markers.read(Block.of(0));
            markers.table();
            markers.markClaimed(Block.of(0), Claimant.of("eu-west-1", "snowid"), ID, 0, now, false);
            markers.markClaimed(Block.of(0), Claimant.of("eu-west-1", "snowid"), ID, 0, now, false);
            markers.markReleased(Block.of(0), Claimant.of("eu-west-1", "snowid"), "token", now);
        }

        Set<String> used = new TreeSet<>();
        calls.operations().forEach(operation -> used.add("dynamodb:" + operation));
        assertEquals(new TreeSet<>(LeaseTableSchema.ACTIONS_USED), used);
    }

    private static final String ID = "0123456789abcdef0123456789abcdef";

    /** The registry policy of the template grants RegistrySchema.ACTIONS_USED: every path of the registry calls only those. */
    @Test
    void everyPathOfTheRegistryCallsOnlyTheActionsItsPolicyGrants() {
        DynamoDbEngine.Running engine = DynamoDbEngine.shared();
        SdkCalls calls = new SdkCalls();
        Claimant eu = Claimant.of("eu-west-1", "snowid");
        Claimant us = Claimant.of("us-east-1", "snowid");
        try (DynamoDbClaimRegistry registry = DynamoDbClaimRegistry.create(TestRegistries.newTable(engine), "SNOWID_REGISTRY_TABLE",
                LeaseTableClient.builder().endpoint(engine.endpoint()).interceptor(calls), "")) {
            registry.claim(Block.of(3), eu, ID, "eu table", 1);
            registry.claim(Block.of(3), eu, ID, "eu table", 2);
            assertThrows(BlockClaimedException.class, () -> registry.claim(Block.of(3), us, ID.replace('0', '1'), "us table", 3));
            registry.release(Block.of(3), eu, 10);
            assertThrows(BlockClaimedException.class, () -> registry.release(Block.of(3), eu, 10));
            registry.claims();
        }
        Set<String> used = new TreeSet<>();
        calls.operations().forEach(operation -> used.add("dynamodb:" + operation));
        assertEquals(new TreeSet<>(RegistrySchema.ACTIONS_USED), used);
    }
}
