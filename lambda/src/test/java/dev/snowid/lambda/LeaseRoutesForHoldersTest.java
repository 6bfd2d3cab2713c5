package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.WallClock;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.Lease;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * What the lease routes give holders beyond the lease itself, on the real handler and a real
 * engine: the epoch to issue with, an audit line for every grant, renewal, release and loss, and
 * a renewal answered only after the function's clock was checked against the store's.
 */
@ExtendWith(DynamoDbEngine.class)
class LeaseRoutesForHoldersTest {

    private static final String[] ONE_SLOT = {FunctionSettings.DATACENTERS, "2", FunctionSettings.MACHINES, "5"};

    @Test
    void everyLeaseAnswerNamesTheEpochTheFunctionIssuesWith(TestTable table) {
        try (Function function = Functions.function(table, FunctionSettings.EPOCH_MILLIS, "1600000000000",
                FunctionSettings.DATACENTERS, "2", FunctionSettings.MACHINES, "5")) {
            Invocation granted = acquire(function, "epoch test");
            assertEquals(1_600_000_000_000L, LeaseMessage.readEpochMillis(granted.body()), granted::toString);
            Invocation renewed = renew(function, LeaseMessage.readLease(granted.body()));
            assertEquals(200, renewed.status(), renewed::toString);
            assertEquals(1_600_000_000_000L, LeaseMessage.readEpochMillis(renewed.body()), renewed::toString);
        }
    }

    @Test
    void everyGrantRenewalReleaseAndLossHasAnAuditLine(TestTable table) {
        try (Function function = Functions.function(table, ONE_SLOT)) {
            Invocation granted = acquire(function, "billing-app on host-7");
            Lease lease = LeaseMessage.readLease(granted.body());
            Invocation renewed = renew(function, lease);
            Invocation released = function.call(TestEvents.request("DELETE", "/leases/" + lease.slot().index()).bearer(Functions.SECRET)
                    .body(LeaseMessage.releaseRequest(lease, 0)), PayloadFormat.V2);
            assertEquals(204, released.status(), released::toString);
            Invocation lost = renew(function, lease);
            assertEquals(409, lost.status(), lost::toString);

            List<JsonNode> audit = function.log().stream().filter(line -> line.contains("\"audit\":\"lease\""))
                    .map(line -> JsonNode.parser().parse(line)).toList();
            assertEquals(List.of("granted", "renewed", "released", "lost"), audit.stream().map(line -> text(line, "event")).toList(),
                    String.join("\n", function.log()));
            JsonNode grant = audit.get(0);
            assertEquals("billing-app on host-7", text(grant, "holder"));
            assertEquals(Integer.toString(lease.slot().index()), number(grant, "slot"));
            assertEquals(Long.toString(lease.fence()), number(grant, "fence"));
            assertEquals(Long.toString(lease.window().floor()), number(grant, "floor"));
            assertEquals(Long.toString(lease.window().expiresAt()), number(grant, "expiresAt"));
            assertTrue(text(grant, "caller").contains("request " + granted.requestId()), text(grant, "caller"));
            assertEquals(Long.toString(LeaseMessage.readLease(renewed.body()).window().expiresAt()), number(audit.get(1), "expiresAt"));
            assertEquals("0", number(audit.get(2), "lastIssued"));
            for (JsonNode line : audit.subList(1, 4)) {
                assertEquals(Long.toString(lease.fence()), number(line, "fence"), "slot and fence name the grant they belong to");
                assertEquals(Integer.toString(lease.slot().index()), number(line, "slot"));
            }
            assertTrue(text(audit.get(3), "reason").contains("another owner or fence"), text(audit.get(3), "reason"));
        }
    }

    @Test
    void aRenewalIsAnsweredOnlyAfterTheFunctionsClockWasCheckedAgainstTheStores(TestTable table) {
        WallClock ahead = () -> System.currentTimeMillis() + 5_000; // a function environment whose clock is 5 s off
        try (Function good = Functions.function(table, ONE_SLOT);
             Function skewed = Functions.function(table, ahead, ahead, ONE_SLOT)) {
            Lease lease = LeaseMessage.readLease(acquire(good, "holder").body());

            Invocation first = renew(skewed, lease); // its first call to the store: checked on the write's own answer
            assertEquals(503, first.status(), first::toString);
            assertEquals("clock_skew", first.text("error"));
            assertTrue(Long.parseLong(first.headers().get("Retry-After")) >= 1);
            long expiresAt = expiresAt(table);

            Invocation second = renew(skewed, lease); // the skew is known now: refused before any write
            assertEquals(503, second.status(), second::toString);
            assertEquals(expiresAt, expiresAt(table), "a function whose clock is off wrote nothing");
            assertFalse(skewed.log().stream().anyMatch(line -> line.contains("\"event\":\"renewed\"")), "no renewal is audited");

            Invocation fine = renew(good, lease);
            assertEquals(200, fine.status(), "the holder's lease is untouched: " + fine);
        }
    }

    private static Invocation acquire(Function function, String holder) {
        Invocation granted = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                .body(LeaseMessage.acquireRequest(holder)), PayloadFormat.V2);
        assertEquals(201, granted.status(), granted::toString);
        return granted;
    }

    private static Invocation renew(Function function, Lease lease) {
        return function.call(TestEvents.request("PUT", "/leases/" + lease.slot().index()).bearer(Functions.SECRET)
                .body(LeaseMessage.renewRequest(lease)), PayloadFormat.V2);
    }

    private static long expiresAt(TestTable table) {
        List<Map<String, AttributeValue>> items = table.client().scan(s -> s.tableName(table.name())).items();
        assertEquals(1, items.size(), items::toString);
        return Long.parseLong(items.get(0).get(LeaseTableSchema.EXPIRES_AT).n());
    }

    private static String text(JsonNode line, String field) {
        return line.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + line)).asString();
    }

    private static String number(JsonNode line, String field) {
        return line.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + line)).asNumber();
    }
}
