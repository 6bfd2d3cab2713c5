package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.PoolParts;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** {@code GET /leases} on the real engine: what the pool holds, per part, and never an owner token. */
@ExtendWith(DynamoDbEngine.class)
class SlotMapRouteTest {

    private static final String[] SPLIT_POOL = {FunctionSettings.DATACENTERS, "6-7", FunctionSettings.MACHINES, "0-31",
        FunctionSettings.AGENT_SLOTS, "16"};

    @Test
    void aLeaseThatNamedNoHolderIsTheDocumentedDefaultHolders(TestTable table) throws java.io.IOException {
        try (Function api = Functions.function(table, SPLIT_POOL)) {
            assertEquals(201, api.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2).status());
            Invocation answer = api.call(TestEvents.get("/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            List<String> holders = new ArrayList<>();
            SlotMap.read(answer.body()).leases().forEach(entry -> holders.add(entry.lease().holder()));
            assertEquals(List.of(dev.snowid.lambda.api.LeaseRequestBody.DEFAULT_HOLDER), holders);
        }
        java.nio.file.Path root = java.nio.file.Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
        String page = java.nio.file.Files.readString(root.resolve("docs/api.md"));
        assertTrue(page.contains("without one the holder is \"" + dev.snowid.lambda.api.LeaseRequestBody.DEFAULT_HOLDER + "\""),
                "docs/api.md names the default holder");
    }

    @Test
    void theMapShowsEveryHeldSlotPerPartAndNoOwnerTokenAnywhereInTheBody(TestTable table) {
        try (Function api = Functions.function(table, SPLIT_POOL); Function environment = Functions.function(table, SPLIT_POOL)) {
            assertEquals(200, environment.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            List<String> holders = List.of("orders-service host-a", "orders-service host-b", "billing pid 42");
            for (String holder : holders) {
                Invocation lease = api.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                        .body(LeaseMessage.acquireRequest(holder)), PayloadFormat.V2);
                assertEquals(201, lease.status(), lease::toString);
            }
            // Released: its row keeps fence and floor but no owner, and it is free.
            Invocation released = api.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                    .body(LeaseMessage.acquireRequest("gone")), PayloadFormat.V2);
            assertEquals(204, api.call(TestEvents.request("DELETE", "/leases/" + released.number("slot")).bearer(Functions.SECRET)
                    .body(LeaseMessage.releaseRequest(LeaseMessage.readLease(released.body()), 0)), PayloadFormat.V2).status());

            Invocation answer = api.call(TestEvents.get("/leases").bearer(Functions.SECRET), PayloadFormat.V2);

            assertEquals(200, answer.status(), answer::toString);
            String raw = answer.body();
            for (String owner : ownersInTheTable(table)) {
                assertFalse(raw.contains(owner), "the owner token " + owner + " is in the slot map: " + raw);
            }
            assertFalse(raw.contains("\"owner\""), raw);
            assertEquals(5, table.client().scan(s -> s.tableName(table.name())).count(), "four held and one released row");
            assertEquals(4, ownersInTheTable(table).size());

            SlotMap map = SlotMap.read(raw);
            assertEquals(2, map.parts().size());
            SlotMap.Part function = map.parts().get(0);
            SlotMap.Part agents = map.parts().get(1);
            assertEquals(PoolParts.FUNCTION, function.name());
            assertEquals(48, function.size());
            assertEquals(1, function.held());
            assertEquals(PoolParts.AGENTS, agents.name());
            assertEquals(16, agents.size());
            assertEquals(3, agents.held());
            assertEquals(13, agents.free());
            assertTrue(agents.earliestExpiry() > map.now(), "earliest expiry ahead of now");
            assertEquals(4, map.leases().size());
            List<String> listed = new ArrayList<>();
            map.leases().forEach(entry -> listed.add(entry.lease().holder()));
            assertTrue(listed.containsAll(holders), listed.toString());
            for (SlotMap.Entry entry : map.leases()) {
                Slot slot = entry.lease().slot();
                boolean agentSlot = slot.datacenter() == 7 && slot.machine() >= 16;
                assertEquals(agentSlot ? PoolParts.AGENTS : PoolParts.FUNCTION, entry.part(), slot.toString());
                assertTrue(entry.lease().fence() >= 1 && entry.lease().expiresAt() > entry.lease().floor(), entry.lease().toString());
            }
            assertTrue(raw.contains("\"node\":\"7:16\"") || raw.contains("\"node\":\"7:"), raw);
        }
    }

    @Test
    void theMapNeedsTheSecret(TestTable table) {
        try (Function api = Functions.function(table)) {
            Invocation refused = api.call(TestEvents.get("/leases").bearer("wrong"), PayloadFormat.V1);
            assertEquals(401, refused.status(), refused::toString);
        }
    }

    private static List<String> ownersInTheTable(TestTable table) {
        List<String> owners = new ArrayList<>();
        for (Map<String, AttributeValue> item : table.client().scan(s -> s.tableName(table.name()).consistentRead(true)).items()) {
            if (item.containsKey("owner")) {
                owners.add(item.get("owner").s());
            }
        }
        return owners;
    }
}
