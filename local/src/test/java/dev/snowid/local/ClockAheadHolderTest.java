package dev.snowid.local;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.client.ClientLog;
import dev.snowid.client.SnowidClient;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A lease client whose clock is ahead of the lease API's by more than the lease (the fleet test's
 * +7 s with 5 s leases), against the real API: the local runner over HTTP on a real engine. The
 * client's clock is set by the test; the API's is the machine's. It takes at most one slot and
 * gives it back, at start-up and when its clock jumps later, and says by how much it is off.
 */
@ExtendWith(DynamoDbEngine.class)
class ClockAheadHolderTest {

    private static final String SECRET = "clock-ahead-49d73516459dd0c9068a0c0d71bff9582a10e6031b373c03da4913e617bc0749";

    private final AtomicLong aheadMillis = new AtomicLong();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private final List<String> audit = new CopyOnWriteArrayList<>();

    @Test
    void atStartUpAClockFarAheadTakesOneSlotGivesItBackAndSaysByHowMuch(TestTable table) {
        try (LocalRunner api = LocalRunner.start(environment(table))) {
            aheadMillis.set(7_000);
            ClockSkewException refused = assertThrows(ClockSkewException.class, () -> client(api));
            assertTrue(refused.getMessage().startsWith("this clock is ") && refused.getMessage().contains(" ms ahead of the lease source's"),
                    refused.getMessage());
            assertTrue(refused.skewMillis() > 6_000 && refused.skewMillis() < 8_000, "measured " + refused.skewMillis() + " ms");

            List<Map<String, AttributeValue>> items = items(table);
            assertEquals(1, items.size(), "one slot taken, not one per attempt: " + items);
            assertTrue(!items.get(0).containsKey(LeaseTableSchema.OWNER), "and given back: " + items);
            assertEquals(List.of("granted", "released"), events());
        }
    }

    @Test
    void aClockThatJumpsAheadLaterGivesTheLeaseBackAndTakesNoOther(TestTable table) throws Exception {
        try (LocalRunner api = LocalRunner.start(environment(table));
             SnowidClient client = client(api)) {
            client.nextId();
            aheadMillis.set(7_000); // the window has ended by this clock: the renewer renews, measures, gives back
            await("the lease was given back").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(() -> client.currentLease().isEmpty());
            IdUnavailableException refused = assertThrows(IdUnavailableException.class, client::nextId);
            assertTrue(refused.getMessage().contains("ms ahead of the lease source's"), refused.getMessage());
            // The renewer's next tries wait for the refusal's Retry-After (10 s): for 2 s of them, no slot is held.
            await("2 s of the renewer's waiting").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(100))
                    .failFast("a slot was held meanwhile", () -> assertEquals(0, owned(table), () -> "no slot is held meanwhile: " + items(table)))
                    .until(() -> true);
            assertEquals(1, items(table).size(), "no other slot was taken: " + items(table));
            assertTrue(errors.stream().anyMatch(line -> line.startsWith("[clock_skew] refusing to lease: this clock is ")), errors.toString());
            assertEquals(List.of("granted", "renewed", "released"), events());
        }
    }

    private SnowidClient client(LocalRunner api) {
        return SnowidClient.builder()
                .leaseUrl(api.baseUri().toString())
                .secret(SECRET)
                .holder("clock-ahead-test")
                .clock(() -> System.currentTimeMillis() + aheadMillis.get())
                .auditAtInfo(true) // the test reads the lease's events from its audit lines
                .log(new ClientLog() {
                    @Override
                    public void info(String message) {
                    }

                    @Override
                    public void warn(String message) {
                    }

                    @Override
                    public void error(String message) {
                        errors.add(message);
                    }

                    @Override
                    public void audit(String jsonLine) {
                        audit.add(jsonLine);
                    }
                })
                .build();
    }

    /** The audit lines' events, in order. */
    private List<String> events() {
        return audit.stream().map(line -> line.replaceAll(".*\"event\":\"([a-z]+)\".*", "$1")).toList();
    }

    private static Map<String, String> environment(TestTable table) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put(FunctionSettings.LEASE_MILLIS, "5000");
        env.put(FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250");
        env.put(FunctionSettings.DATACENTERS, "9");
        env.put(FunctionSettings.MACHINES, "0-3");
        return env;
    }

    private static long owned(TestTable table) {
        return items(table).stream().filter(item -> item.containsKey(LeaseTableSchema.OWNER)).count();
    }

    /** The slots' items: not the claims of the client's request ids. */
    private static List<Map<String, AttributeValue>> items(TestTable table) {
        return table.client().scan(s -> s.tableName(table.name())).items().stream()
                .filter(item -> LeaseTableSchema.slotIndexOf(item.get(LeaseTableSchema.SLOT).n()).isPresent()).toList();
    }
}
