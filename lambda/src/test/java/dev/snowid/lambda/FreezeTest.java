package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.ManualClock;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A Lambda environment frozen between requests: its lease runs out while no code runs. On
 * thaw it must confirm a lease with the store before it issues again; with a pool of one slot,
 * another environment may have taken that slot meanwhile.
 */
@ExtendWith(DynamoDbEngine.class)
class FreezeTest {

    private static final long LEASE_MILLIS = 5_000;
    private static final String[] ONE_SLOT_SHORT_LEASE = {
        FunctionSettings.DATACENTERS, "0", FunctionSettings.MACHINES, "0",
        FunctionSettings.LEASE_MILLIS, Long.toString(LEASE_MILLIS),
        FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250"};

    @Test
    void aThawedEnvironmentConfirmsALeaseBeforeItIssues(TestTable table) {
        ManualClock clock = new ManualClock(System.currentTimeMillis());
        try (Function function = frozenAt(table, clock)) {
            List<SnowflakeId> before = ids(function, 10);
            long expiredAt = expiresAt(table);

            clock.advance(LEASE_MILLIS + 1_000); // frozen past the lease
            long thawedAt = clock.millis();
            List<SnowflakeId> after = ids(function, 10);

            long confirmedUntil = expiresAt(table);
            assertTrue(confirmedUntil > thawedAt, "the store confirmed a lease reaching past the thaw before IDs were issued");
            for (SnowflakeId id : after) {
                assertTrue(id.unixMillis() >= thawedAt && id.unixMillis() < confirmedUntil,
                        id.unixMillis() + " inside the window confirmed after the thaw (old expiry " + expiredAt + ")");
            }
            assertTrue(after.get(0).value() > before.get(before.size() - 1).value());
        }
    }

    @Test
    void aThawedEnvironmentWhoseSlotWasTakenFailsClosedThenLeasesAgain(TestTable table) {
        ManualClock clock = new ManualClock(System.currentTimeMillis());
        try (Function frozen = frozenAt(table, clock);
             Function other = frozenAt(table, clock)) {
            List<SnowflakeId> all = new ArrayList<>(ids(frozen, 100));

            clock.advance(LEASE_MILLIS + 1_000); // frozen: the lease runs out, and the other environment takes the slot
            all.addAll(ids(other, 100));
            long othersFloor = Long.parseLong(item(table).get(LeaseTableSchema.FLOOR).n());

            Invocation thawed = frozen.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(503, thawed.status(), "no ID from a lease someone else now holds: " + thawed);
            assertEquals("no_free_slot", thawed.text("error"));
            assertTrue(Long.parseLong(thawed.headers().get("Retry-After")) >= 1);

            clock.advance(5);
            other.handler().close(); // releases the slot
            clock.advance(5);
            List<SnowflakeId> afterRelease = ids(frozen, 100);
            all.addAll(afterRelease);

            assertEquals(300, new HashSet<>(all).size(), "no ID issued twice from the one slot");
            for (SnowflakeId id : all.subList(100, 200)) {
                assertTrue(id.unixMillis() >= othersFloor, "the other holder starts at the frozen one's expiry");
            }
            long othersLast = all.subList(100, 200).stream().mapToLong(SnowflakeId::unixMillis).max().orElseThrow();
            for (SnowflakeId id : afterRelease) {
                assertTrue(id.unixMillis() > othersLast, "the thawed environment starts after the other's last ID");
            }
        }
    }

    /**
     * A function on {@code clock}, which the test moves by hand to play the freeze; the store's
     * {@code Date} header is compared with the machine's real clock, as a thawed environment's
     * (correct) clock would be.
     */
    private static Function frozenAt(TestTable table, ManualClock clock) {
        return Functions.function(table, clock, WallClock.SYSTEM, ONE_SLOT_SHORT_LEASE);
    }

    private static List<SnowflakeId> ids(Function function, int count) {
        Invocation answer = function.call(TestEvents.get("/ids").query("count=" + count), PayloadFormat.V2);
        assertEquals(200, answer.status(), answer::toString);
        List<SnowflakeId> ids = new ArrayList<>();
        answer.ids().forEach(id -> ids.add(SnowflakeCodec.TWITTER.parse(id)));
        return ids;
    }

    private static long expiresAt(TestTable table) {
        return Long.parseLong(item(table).get(LeaseTableSchema.EXPIRES_AT).n());
    }

    private static Map<String, AttributeValue> item(TestTable table) {
        List<Map<String, AttributeValue>> items = table.client().scan(s -> s.tableName(table.name())).items();
        assertEquals(1, items.size(), items::toString);
        return items.get(0);
    }
}
