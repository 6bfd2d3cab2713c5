package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The split pool on the real engine: datacenter 5, machines 0-7, the last 4 slots for
 * {@code POST /leases}. Each {@link Function} is a fresh execution environment.
 */
@ExtendWith(DynamoDbEngine.class)
class PoolPartitionTest {

    private static final String[] SPLIT_POOL = {FunctionSettings.DATACENTERS, "5", FunctionSettings.MACHINES, "0-7",
        FunctionSettings.AGENT_SLOTS, "4"};
    private static final Set<Slot> AGENTS_PART = Set.of(Slot.of(5, 4), Slot.of(5, 5), Slot.of(5, 6), Slot.of(5, 7));

    @Test
    void aClientWithTheSecretDrainsOnlyTheAgentsPartAndFreshEnvironmentsStillIssue(TestTable table) {
        List<Function> environments = new ArrayList<>();
        try (Function api = Functions.function(table, SPLIT_POOL)) {
            Set<Slot> granted = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                Invocation lease = api.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
                assertEquals(201, lease.status(), lease::toString);
                granted.add(Slot.of((int) lease.number("datacenter"), (int) lease.number("machine")));
            }
            assertEquals(AGENTS_PART, granted, "POST /leases grants only the agents' part");
            Invocation refused = api.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(503, refused.status(), refused::toString);
            assertEquals("no_free_slot", refused.text("error"));
            assertTrue(refused.headers().containsKey("Retry-After"), refused::toString);

            Set<Slot> issuedFrom = new HashSet<>();
            for (int i = 0; i < 4; i++) {
                Function environment = Functions.function(table, SPLIT_POOL);
                environments.add(environment);
                Invocation ids = environment.call(TestEvents.get("/ids"), PayloadFormat.V2);
                assertEquals(200, ids.status(), "fresh environment " + i + " issues while the agents' part is drained: " + ids);
                long id = Long.parseLong(ids.ids().get(0));
                var decoded = SnowflakeCodec.TWITTER.decode(id);
                issuedFrom.add(Slot.of(decoded.datacenter(), decoded.machine()));
            }
            assertEquals(Set.of(Slot.of(5, 0), Slot.of(5, 1), Slot.of(5, 2), Slot.of(5, 3)), issuedFrom,
                    "the environments lease only the function's part");
        } finally {
            environments.forEach(Function::close);
        }
    }

    @Test
    void environmentsThatFillTheFunctionsPartLeaveTheAgentsPartFree(TestTable table) {
        List<Function> environments = new ArrayList<>();
        try (Function api = Functions.function(table, SPLIT_POOL)) {
            for (int i = 0; i < 4; i++) {
                Function environment = Functions.function(table, SPLIT_POOL);
                environments.add(environment);
                Invocation ids = environment.call(TestEvents.get("/ids"), PayloadFormat.V2);
                assertEquals(200, ids.status(), ids::toString);
            }
            Function onceMore = Functions.function(table, SPLIT_POOL);
            environments.add(onceMore);
            Invocation refused = onceMore.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(503, refused.status(), refused::toString);
            assertEquals("no_free_slot", refused.text("error"));

            for (int i = 0; i < 4; i++) {
                Invocation lease = api.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
                assertEquals(201, lease.status(), "the agents' part is untouched by the function's: " + lease);
                assertTrue(AGENTS_PART.contains(Slot.of((int) lease.number("datacenter"), (int) lease.number("machine"))), lease::toString);
            }
        } finally {
            environments.forEach(Function::close);
        }
    }

    @Test
    void theLeaseRoutesDoNotRenewASlotOfTheFunctionsPart(TestTable table) {
        try (Function environment = Functions.function(table, SPLIT_POOL)) {
            assertEquals(200, environment.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            Slot own = Slot.parse(environment.call(TestEvents.get("/health"), PayloadFormat.V2).text("slot"));
            Map<String, AttributeValue> row = table.client().getItem(g -> g.tableName(table.name()).consistentRead(true)
                    .key(Map.of("slot", AttributeValue.fromN(Integer.toString(own.index()))))).item();
            String owner = row.get("owner").s();
            long fence = Long.parseLong(row.get("fence").n());

            Invocation renew = environment.call(TestEvents.request("PUT", "/leases/" + own.index()).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + "}"), PayloadFormat.V2);

            assertEquals(404, renew.status(), renew::toString);
            assertTrue(renew.text("message").contains("function's part"), renew::toString);
        }
    }

    @Test
    void theLeaseRoutesDoNotReleaseASlotOfTheFunctionsPart(TestTable table) {
        try (Function environment = Functions.function(table, SPLIT_POOL)) {
            assertEquals(200, environment.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            Slot own = Slot.parse(environment.call(TestEvents.get("/health"), PayloadFormat.V2).text("slot"));
            Map<String, AttributeValue> key = Map.of("slot", AttributeValue.fromN(Integer.toString(own.index())));
            Map<String, AttributeValue> row = table.client().getItem(g -> g.tableName(table.name()).consistentRead(true).key(key)).item();

            Invocation release = environment.call(TestEvents.request("DELETE", "/leases/" + own.index()).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + row.get("owner").s() + "\",\"fence\":" + row.get("fence").n() + ",\"lastIssued\":0}"),
                    PayloadFormat.V2);

            assertEquals(404, release.status(), release::toString);
            assertTrue(release.text("message").contains("function's part"), release::toString);
            assertEquals(row, table.client().getItem(g -> g.tableName(table.name()).consistentRead(true).key(key)).item(),
                    "the environment's own lease is untouched");
        }
    }

    @Test
    void withNoSlotKeptForAgentsTheLeaseRoutesGrantNothingAndTheFunctionIssues(TestTable table) {
        try (Function function = Functions.function(table, FunctionSettings.DATACENTERS, "5", FunctionSettings.MACHINES, "0-1",
                FunctionSettings.AGENT_SLOTS, "0")) {
            Invocation refused = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(503, refused.status(), refused::toString);
            assertEquals("no_free_slot", refused.text("error"));
            assertEquals(200, function.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
        }
    }
}
