package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
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
 * be seen, on each real engine, and no acquisition id's claim taken for one.
 */
@OnEveryEngine
class ScanPagesTest {

    private static final long T = 1_700_000_000_000L;
    private static final int LEASES = 7;

    @Test
    void everyScanReadsEveryPageAndSkipsTheClaimsOnThem(TestTable table) {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                .client(TestStores.clientSettings(table).interceptor(new TwoItemPages()).interceptor(calls)).build()) {
            List<Slot> slots = new ArrayList<>();
            for (int i = 0; i < LEASES; i++) {
                Slot slot = Slot.ofIndex(100 + 3 * i);
                slots.add(slot);
                String owner = String.format("%032x", i + 1);
                String requestId = String.format("%032x", 0x10000000L * (i + 1));
                store.claim(requestId, "holder-" + i, owner, T + 60_000);
                store.tryAcquire(slot, owner, "holder-" + i, T, T + 60_000, requestId).orElseThrow();
            }

            calls.clear();
            Map<Slot, Long> owned = store.ownedExpiries();
            assertEquals(slots, List.copyOf(owned.keySet()), "every owned slot, over the pages, and no claim");
            assertTrue(calls.counts().get("Scan") >= 7, "14 items in pages of 2: " + calls.counts());

            List<HeldSlot> held = store.heldSlots();
            assertEquals(slots, held.stream().map(HeldSlot::slot).toList(), "every held slot, in slot order, and no claim");
            assertEquals("holder-6", held.get(LEASES - 1).holder());
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
