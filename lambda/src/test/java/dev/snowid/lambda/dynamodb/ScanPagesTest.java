package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;

/**
 * The store's Scans read every page: a table of 1024 slots fits one page of DynamoDB's 1 MB, so
 * here every Scan is cut to pages of two items (Scan's {@code Limit}), and every lease must still
 * be seen, on each real engine.
 */
@OnEveryEngine
class ScanPagesTest {

    private static final long T = 1_700_000_000_000L;
    private static final int LEASES = 7;

    @Test
    void everyScanReadsEveryPage(TestTable table) {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                .client(TestStores.clientSettings(table).interceptor(new TwoItemPages()).interceptor(calls)).build()) {
            List<Slot> slots = new ArrayList<>();
            for (int i = 0; i < LEASES; i++) {
                Slot slot = Slot.ofIndex(100 + 3 * i);
                slots.add(slot);
                store.tryAcquire(slot, String.format("%032x", i + 1), "holder-" + i, T, T + 60_000, "request-" + i).orElseThrow();
            }

            calls.clear();
            Map<Slot, Long> owned = store.ownedExpiries();
            assertEquals(slots, List.copyOf(owned.keySet()), "every owned slot, over the pages");
            assertTrue(calls.counts().get("Scan") >= 4, "7 items in pages of 2: " + calls.counts());

            List<HeldSlot> held = store.heldSlots();
            assertEquals(slots, held.stream().map(HeldSlot::slot).toList(), "every held slot, in slot order");
            assertEquals("holder-6", held.get(LEASES - 1).holder());

            Lease last = store.grantedFor("request-" + (LEASES - 1), T)
                    .orElseThrow(() -> new AssertionError("the last grant, on a later page"));
            assertEquals(slots.get(LEASES - 1), last.slot());
            assertEquals(String.format("%032x", LEASES), last.owner());
        }
    }

    @Test
    void aScanThatFoundItsItemReadsNoFurtherPage(TestTable table) {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                .client(TestStores.clientSettings(table).interceptor(new TwoItemPages()).interceptor(calls)).build()) {
            for (int i = 0; i < LEASES; i++) {
                store.tryAcquire(Slot.ofIndex(200 + i), String.format("%032x", i + 1), "h", T, T + 60_000, "request-" + i).orElseThrow();
            }
            calls.clear();
            assertTrue(store.grantedFor("no-such-request", T).isEmpty());
            int everyPage = calls.counts().get("Scan");

            // The engine's own order (by key hash), not the slots': ask for an item of its first page.
            String onFirstPage = table.client().scan(s -> s.tableName(table.name()).limit(2)).items().get(0).get("request").s();
            calls.clear();
            store.grantedFor(onFirstPage, T).orElseThrow();
            int untilFound = calls.counts().get("Scan");

            assertTrue(untilFound < everyPage, "stopped at the page with the item: " + untilFound + " of " + everyPage + " pages");
        }
    }

    /** Cuts every Scan to pages of two items. */
    private static final class TwoItemPages implements ExecutionInterceptor {
        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            return context.request() instanceof ScanRequest scan ? scan.toBuilder().limit(2).build() : context.request();
        }
    }
}
