package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.api.Route;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.PoolParts;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.testing.ManualClock;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The request log (Powertools' field names, through the Lambda runtime's logger) and the EMF
 * metrics, read back as CloudWatch would read them.
 */
@ExtendWith(DynamoDbEngine.class)
class RequestTelemetryTest {

    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    private static final String SERVICE = "orders-prod";
    private static final String NAMESPACE = "Acme/Ids";

    private static Function function(TestTable table, WallClock clock, String... extra) {
        List<String> env = new ArrayList<>(List.of(FunctionSettings.METRICS, "emf", FunctionSettings.SERVICE, SERVICE,
                FunctionSettings.METRICS_NAMESPACE, NAMESPACE));
        env.addAll(List.of(extra));
        // The store's Date header is compared with the real clock: tests move `clock` by hand.
        return Functions.function(table, clock, WallClock.SYSTEM, env.toArray(String[]::new));
    }

    @Test
    void oneLinePerRequestWithPowertoolsFieldsAndTheRequestsOwn(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            long before = System.currentTimeMillis();
            Invocation ids = function.call(TestEvents.get("/ids").query("count=17"), PayloadFormat.V2);
            Invocation bad = function.call(TestEvents.get("/ids").query("count=0"), PayloadFormat.V1);
            long after = System.currentTimeMillis();

            List<JsonNode> lines = function.logLines();
            assertEquals(2, lines.size(), function.log()::toString);
            JsonNode first = lines.get(0);
            String timestamp = text(first, "timestamp");
            assertTrue(TIMESTAMP.matcher(timestamp).matches(), timestamp);
            long at = java.time.Instant.parse(timestamp).toEpochMilli();
            assertTrue(at >= before && at <= after, timestamp + " not within the request");
            assertEquals("INFO", text(first, "level"));
            assertEquals("GET /ids 200", text(first, "message"));
            assertEquals(SERVICE, text(first, "service"));
            assertTrue(bool(first, "cold_start"), "the environment's first request");
            assertEquals("snowid-test", text(first, "function_name"));
            assertEquals("$LATEST", text(first, "function_version"));
            assertEquals("arn:aws:lambda:eu-west-1:123456789012:function:snowid-test", text(first, "function_arn"));
            assertEquals(512, number(first, "function_memory_size"));
            assertEquals(ids.requestId(), text(first, "function_request_id"));
            assertEquals(Invocation.TestContext.TRACE_ROOT, text(first, "xray_trace_id"));
            assertEquals("/ids", text(first, "route"));
            assertEquals("GET", text(first, "method"));
            assertEquals(200, number(first, "status"));
            double latency = Double.parseDouble(first.field("latency_ms").orElseThrow().asNumber());
            assertTrue(latency > 0 && latency < after - before + 1, "latency_ms " + latency);
            assertEquals(17, number(first, "ids"));
            assertTrue(bool(first, "lease_acquired"));
            assertEquals(onlyItem(table).get(LeaseTableSchema.SLOT).n(), Integer.toString(dev.snowid.Slot.parse(text(first, "slot")).index()));
            assertTrue(first.field("error").isEmpty() && first.field("error_code").isEmpty(), first.toString());

            JsonNode second = lines.get(1);
            assertEquals("INFO", text(second, "level"), "a client's mistake is not ours to warn about");
            assertEquals(400, number(second, "status"));
            assertEquals("invalid_count", text(second, "error_code"));
            assertFalse(bool(second, "cold_start"));
            assertEquals(bad.requestId(), text(second, "function_request_id"));
            assertTrue(second.field("lease_acquired").isEmpty(), second.toString());
        }
    }

    @Test
    void metricsCarryNamespaceServiceUnitsAndTheRequestsCounts(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            function.call(TestEvents.get("/ids").query("count=5"), PayloadFormat.V2);
            function.call(TestEvents.get("/ids").query("count=0"), PayloadFormat.V2);

            List<EmfRecord> records = function.metricRecords().stream().map(EmfRecord::read).toList();
            assertEquals(2, records.size(), records::toString);
            for (EmfRecord record : records) {
                assertEquals(NAMESPACE, record.namespace());
                assertEquals(SERVICE, record.dimension("Service").orElseThrow());
                record.dimensionsOf().values().forEach(dimensions -> assertEquals("Service", dimensions.get(0), record::toString));
            }
            EmfRecord ids = records.get(0);
            assertEquals("/ids", ids.dimension("Route").orElseThrow());
            assertEquals("Count", ids.units().get("Requests"));
            assertEquals(1, ids.value("Requests"));
            assertEquals("Milliseconds", ids.units().get("Latency"));
            assertTrue(ids.value("Latency") > 0);
            assertEquals(List.of("Service", "Route"), ids.dimensionsOf().get("Latency"));
            assertEquals(5, ids.value("IdsIssued"));
            assertEquals(List.of("Service"), ids.dimensionsOf().get("IdsIssued"));
            assertEquals(1, ids.value("ColdStart"));
            assertEquals("function", ids.dimension("Holder").orElseThrow());
            assertEquals(1, ids.value("LeaseAcquisitions"));
            assertEquals(List.of("Service", "Holder"), ids.dimensionsOf().get("LeaseAcquisitions"));
            // The first acquisition of a process, on an empty table: one write that takes only an unheld slot.
            assertEquals(1, ids.value("AcquisitionRoundTrips"));
            assertFalse(ids.has("Errors") || ids.has("ServerErrors") || ids.has("LeaseLosses"), ids.toString());
            assertFalse(records.stream().anyMatch(r -> r.has("PoolOccupancy")), "no Scan, so no occupancy: " + records);

            EmfRecord refused = records.get(1);
            assertEquals("invalid_count", refused.dimension("ErrorCode").orElseThrow());
            assertEquals(1, refused.value("Errors"));
            assertEquals(List.of("Service", "ErrorCode"), refused.dimensionsOf().get("Errors"));
            assertEquals(0, refused.value("IdsIssued"));
            assertFalse(refused.has("ServerErrors") || refused.has("ColdStart") || refused.has("LeaseAcquisitions"), refused.toString());
            assertTrue(refused.timestamp() >= ids.timestamp());
        }
    }

    @Test
    void eachPartsOccupancyIsMeteredWhenAnAcquisitionScans(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM, FunctionSettings.AGENT_SLOTS, "32")) {
            // Others hold all 96 of the function's slots and 5 of the agents' 32: the function's first acquisition
            // finds no unheld slot, probes once more, and scans (when occupancy is seen), then answers 503.
            PoolParts parts = FunctionSettings.from(Functions.environment(table, FunctionSettings.AGENT_SLOTS, "32")).poolParts();
            List<Slot> held = new ArrayList<>(parts.function().slots());
            held.addAll(parts.agents().orElseThrow().slots().subList(0, 5));
            LeaseStore others = TestStores.store(table, WallClock.SYSTEM);
            long now = System.currentTimeMillis();
            for (Slot slot : held) {
                others.tryAcquire(slot, String.format("%032x", slot.index()), "others", now, now + 600_000).orElseThrow();
            }
            Invocation ids = function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(503, ids.status(), ids::toString);

            List<EmfRecord> records = function.metricRecords().stream().map(EmfRecord::read).toList();
            EmfRecord functionPart = part(records, "function");
            assertEquals("Percent", functionPart.units().get("PoolOccupancy"));
            assertEquals(100.0, functionPart.value("PoolOccupancy"), 0.001);
            assertEquals(96, functionPart.value("PoolSlotsHeld"));
            assertEquals(List.of("Service", "Part"), functionPart.dimensionsOf().get("PoolOccupancy"));
            EmfRecord agentsPart = part(records, "agents");
            assertEquals(100.0 * 5 / 32, agentsPart.value("PoolOccupancy"), 0.001);
            assertEquals(5, agentsPart.value("PoolSlotsHeld"));
        }
    }

    @Test
    void healthIsLoggedButNeverMetered(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(200, function.call(TestEvents.get("/health"), PayloadFormat.V2).status());
            }
            function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            function.call(TestEvents.get("/health"), PayloadFormat.V1);

            assertEquals(5, function.logLines().size(), function.log()::toString);
            assertEquals("/health", text(function.logLines().get(0), "route"));
            List<EmfRecord> records = function.metricRecords().stream().map(EmfRecord::read).toList();
            assertTrue(records.stream().noneMatch(r -> r.dimension("Route").filter("/health"::equals).isPresent()), records::toString);
            assertEquals(1, records.stream().filter(r -> r.has("Requests")).count(), "the /ids request only: " + records);
            // The first request was /health, so the cold start is in its log line and in no metric.
            assertTrue(bool(function.logLines().get(0), "cold_start"));
            assertTrue(records.stream().noneMatch(r -> r.has("ColdStart")), records::toString);
        }
    }

    @Test
    void aColdStartIsFlaggedOnceAfterInitAndOnceAfterEachRestore(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            for (int i = 0; i < 3; i++) {
                function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            }
            function.handler().snapStartHooks().beforeCheckpoint(null);
            function.handler().snapStartHooks().afterRestore(null);
            for (int i = 0; i < 3; i++) {
                function.call(TestEvents.get("/ids/1724551110457221119"), PayloadFormat.V2);
            }

            List<JsonNode> requests = function.logLines().stream().filter(l -> l.field("route").isPresent()).toList();
            assertEquals(6, requests.size(), function.log()::toString);
            List<Boolean> flags = requests.stream().map(l -> bool(l, "cold_start")).toList();
            assertEquals(List.of(true, false, false, true, false, false), flags);
            List<Double> coldStarts = function.metricRecords().stream().map(EmfRecord::read).filter(r -> r.has("ColdStart"))
                    .map(r -> r.value("ColdStart")).toList();
            assertEquals(List.of(1.0, 1.0), coldStarts, "one ColdStart per start, none for the warm requests");
        }
    }

    @Test
    void failuresAreStructuredErrorObjectsAtTheirLevel(TestTable table) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        FunctionSettings settings = FunctionSettings.from(Functions.environment(table, FunctionSettings.METRICS, "emf"));
        LeaseStore broken = new SnowidHandlerTest.BrokenStore();
        try (SnowidHandler handler = SnowidHandler.builder(settings).store(broken)
                .logTo(new java.io.PrintStream(out, true, StandardCharsets.UTF_8)).build()) {
            Invocation answer = Invocation.of(handler, TestEvents.get("/ids").v2());
            assertEquals(500, answer.status());

            List<JsonNode> all = out.toString(StandardCharsets.UTF_8).lines().map(l -> JsonNode.parser().parse(l)).toList();
            JsonNode line = all.stream().filter(l -> l.field("_aws").isEmpty()).findFirst().orElseThrow();
            assertEquals("ERROR", text(line, "level"));
            assertEquals("internal", text(line, "error_code"));
            JsonNode error = line.field("error").orElseThrow();
            assertEquals(IllegalStateException.class.getName(), text(error, "name"));
            assertTrue(text(error, "message").contains("sensitive detail"), error.toString());
            List<JsonNode> stack = error.field("stack").orElseThrow().asArray();
            assertTrue(stack.size() > 1 && stack.get(0).asString().contains("BrokenStore"), "frames, one per element: " + stack);

            EmfRecord record = EmfRecord.read(all.stream().filter(l -> l.field("_aws").isPresent()).findFirst().orElseThrow());
            assertEquals(1, record.value("ServerErrors"));
            assertEquals(1, record.value("Errors"));
            assertEquals("internal", record.dimension("ErrorCode").orElseThrow());
        }
    }

    @Test
    void agentLeasesThroughTheLeaseRoutesAreCountedAsTheAgents(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            Invocation granted = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(201, granted.status(), granted::toString);
            long slot = granted.number("slot");
            Invocation renewed = function.call(TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + granted.text("owner") + "\",\"fence\":" + granted.number("fence") + "}"), PayloadFormat.V2);
            assertEquals(200, renewed.status(), renewed::toString);
            Invocation lost = function.call(TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + "0".repeat(32) + "\",\"fence\":" + granted.number("fence") + "}"), PayloadFormat.V2);
            assertEquals(409, lost.status(), lost::toString);

            List<EmfRecord> records = function.metricRecords().stream().map(EmfRecord::read).filter(r -> r.has("Requests")).toList();
            assertEquals(3, records.size(), records::toString);
            records.forEach(r -> assertEquals("agents", r.dimension("Holder").orElseThrow(), r::toString));
            assertEquals(1, records.get(0).value("LeaseAcquisitions"));
            assertEquals(1, records.get(0).value("AcquisitionRoundTrips"), "a first acquisition on an empty table: one write");
            assertEquals(1, records.get(1).value("LeaseRenewals"));
            assertEquals(1, records.get(2).value("LeaseLosses"));
            assertEquals("lease_lost", records.get(2).dimension("ErrorCode").orElseThrow());
            assertEquals("WARN", text(function.logLines().get(2), "level"));
        }
    }

    @Test
    void aWarningCarriesItsCodeInItsMessageAndAsAField(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM, "SNOWID_LEASE_MILIS", "30000")) {
            JsonNode warning = function.logLines().get(0);
            assertEquals("WARN", text(warning, "level"));
            assertEquals("unknown_setting", text(warning, "warning_code"));
            assertTrue(text(warning, "message").startsWith("[unknown_setting] environment variable SNOWID_LEASE_MILIS is not a setting"
                    + " of the function"), text(warning, "message"));
            assertEquals(200, function.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            assertFalse(function.logLines().get(1).field("warning_code").isPresent(), "a request line has none");
        }
    }

    @Test
    void theFunctionsOwnLostLeaseIsCountedAndTheNextOneWithIt(TestTable table) {
        ManualClock clock = new ManualClock(System.currentTimeMillis());
        // The clock jumps half a lease ahead (as after a freeze); the store's clock is read against the real one.
        try (Function function = function(table, clock)) {
            assertEquals(200, function.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            Map<String, AttributeValue> held = onlyItem(table);
            // Another holder takes the slot over (as after a freeze past the lease).
            table.client().updateItem(u -> u.tableName(table.name()).key(Map.of(LeaseTableSchema.SLOT, held.get(LeaseTableSchema.SLOT)))
                    .updateExpression("SET #owner = :other").expressionAttributeNames(Map.of("#owner", LeaseTableSchema.OWNER))
                    .expressionAttributeValues(Map.of(":other", AttributeValue.fromS("f".repeat(32)))));
            clock.advance(LeaseTerms.DEFAULT_LEASE_MILLIS / 2 + 1_000);

            Invocation after = function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(200, after.status(), after::toString);
            EmfRecord record = EmfRecord.read(function.metricRecords().stream().filter(r -> r.field("Requests").isPresent())
                    .reduce((a, b) -> b).orElseThrow());
            assertEquals("function", record.dimension("Holder").orElseThrow());
            assertEquals(1, record.value("LeaseLosses"));
            assertEquals(1, record.value("LeaseAcquisitions"));
            assertFalse(record.has("LeaseRenewals"), record.toString());
        }
    }

    @Test
    void linesGoThroughTheRuntimesLoggerWithTheirLevelSoItsFilterApplies(TestTable table) throws Exception {
        List<LogLevel> levels = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        LambdaLogger runtime = new LambdaLogger() {
            @Override public void log(String message) { throw new AssertionError("unleveled: " + message); }
            @Override public void log(byte[] message) { throw new AssertionError("unleveled"); }
            @Override public void log(byte[] message, LogLevel level) {
                levels.add(level);
                lines.add(new String(message, StandardCharsets.UTF_8));
            }
        };
        LambdaLogger original = swapRuntimeLogger(runtime);
        try (SnowidHandler handler = SnowidHandler.builder(FunctionSettings.from(Functions.environment(table)))
                .store(TestStores.store(table, WallClock.SYSTEM)).build()) {
            Invocation.of(handler, TestEvents.get("/ids").v2());
            Invocation.of(handler, TestEvents.request("POST", "/leases").v2());
            Invocation.of(handler, TestEvents.request("PUT", "/leases/0").bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + "0".repeat(32) + "\",\"fence\":1}").v2());
        } finally {
            swapRuntimeLogger(original);
        }
        List<LogLevel> requestLevels = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).contains("\"audit\":\"lease\"")) { // the leases' audit lines have their own levels
                requestLevels.add(levels.get(i));
            }
        }
        assertEquals(List.of(LogLevel.INFO, LogLevel.INFO, LogLevel.WARN), requestLevels.subList(0, 3));
        for (String line : lines) {
            assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, "one line each: " + line);
            JsonNode json = JsonNode.parser().parse(line);
            assertTrue(json.field("level").isPresent() && json.field("message").isPresent(), line);
        }
    }

    /** The one occupancy record of a pool part (records of one request come in no promised order). */
    private static EmfRecord part(List<EmfRecord> records, String part) {
        List<EmfRecord> found = records.stream().filter(r -> r.dimension("Part").filter(part::equals).isPresent()).toList();
        assertEquals(1, found.size(), () -> "one record for part " + part + " in " + records);
        return found.get(0);
    }

    @Test
    void theEnvironmentsOwnLeaseGrantIsAnAuditLineInTheSameFormat(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            assertEquals(200, function.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            List<JsonNode> audit = function.auditLines();
            assertEquals(1, audit.size(), function.log()::toString);
            JsonNode grant = audit.get(0);
            assertEquals("granted", text(grant, "event"));
            assertEquals("INFO", text(grant, "level"));
            assertEquals(SERVICE, text(grant, "service"));
            assertTrue(grant.field("timestamp").isPresent() && grant.field("fence").isPresent() && grant.field("expiresAt").isPresent(),
                    grant::toString);
            assertTrue(text(grant, "caller").startsWith("this function environment"), grant::toString);
        }
    }

    @Test
    void everyErrorCodeAnsweredIsADeclaredOneSoAlarmsCanNameIt(TestTable table) {
        try (Function function = function(table, WallClock.SYSTEM)) {
            List<TestEvents.Request> requests = List.of(TestEvents.get("/ids").query("count=x"), TestEvents.get("/ids/abc"),
                    TestEvents.get("/nope"), TestEvents.request("DELETE", "/ids"), TestEvents.request("POST", "/leases"),
                    TestEvents.request("PUT", "/leases/0").bearer(Functions.SECRET).body("{"),
                    TestEvents.request("PUT", "/leases/0").bearer(Functions.SECRET).body("{\"owner\":1}"),
                    TestEvents.request("PUT", "/leases/0").bearer(Functions.SECRET).body("{\"owner\":\"" + "0".repeat(32) + "\",\"fence\":1}"),
                    TestEvents.get("/ids").query("count=%zz"));
            for (TestEvents.Request request : requests) {
                function.call(request, PayloadFormat.V2);
            }
            function.call("{\"not\":\"an event\"}");
            List<String> codes = function.logLines().stream().map(l -> l.field("error_code")).filter(java.util.Optional::isPresent)
                    .map(c -> c.get().asString()).toList();
            assertEquals(requests.size() + 1, codes.size(), codes::toString);
            List<String> declared = java.util.Arrays.stream(ErrorCode.values()).map(ErrorCode::code).toList();
            assertTrue(declared.containsAll(codes), codes + " not all in " + declared);
        }
    }

    @Test
    void poolPartsInMetricsAreNamedAsTheSlotMapNamesThem() {
        assertEquals(List.of(PoolParts.SHARED), dev.snowid.lambda.telemetry.PoolPart.of(false).stream()
                .map(dev.snowid.lambda.telemetry.PoolPart::value).toList());
        assertEquals(List.of(PoolParts.FUNCTION, PoolParts.AGENTS), dev.snowid.lambda.telemetry.PoolPart.of(true).stream()
                .map(dev.snowid.lambda.telemetry.PoolPart::value).toList());
    }

    /** What the Lambda runtime itself does at start: its logger becomes LambdaRuntime's. */
    private static LambdaLogger swapRuntimeLogger(LambdaLogger logger) throws ReflectiveOperationException {
        Field field = LambdaRuntime.class.getDeclaredField("logger");
        field.setAccessible(true);
        LambdaLogger old = (LambdaLogger) field.get(null);
        field.set(null, logger);
        return old;
    }

    private static Map<String, AttributeValue> onlyItem(TestTable table) {
        List<Map<String, AttributeValue>> items = table.client().scan(s -> s.tableName(table.name())).items();
        assertEquals(1, items.size(), "one lease in the table: " + items);
        return items.get(0);
    }

    private static String text(JsonNode node, String field) {
        return node.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + node)).asString();
    }

    private static long number(JsonNode node, String field) {
        return Long.parseLong(node.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + node)).asNumber());
    }

    private static boolean bool(JsonNode node, String field) {
        return node.field(field).orElseThrow(() -> new AssertionError("no " + field + " in " + node)).asBoolean();
    }
}
