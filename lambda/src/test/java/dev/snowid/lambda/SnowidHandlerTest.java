package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.api.BearerSecretCheck;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.json.TestJson;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The handler on a real engine, fed API Gateway events of both payload formats. */
@ExtendWith(DynamoDbEngine.class)
class SnowidHandlerTest {

    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;

    @Test
    void httpApiEventGetsIdsFromTheSlotItHoldsInTheTable(TestTable table) {
        try (Function function = Functions.function(table)) {
            Invocation answer = function.call(fixture("http-api-v2-get-ids.json"));

            assertEquals(200, answer.status(), answer::toString);
            assertEquals("application/json", answer.headers().get("Content-Type"));
            assertEquals("no-store", answer.headers().get("Cache-Control"));
            List<JsonValue> ids = TestJson.items(answer.json(), "ids");
            assertEquals(5, ids.size());
            Map<String, AttributeValue> item = onlyItem(table);
            long floor = Long.parseLong(item.get(LeaseTableSchema.FLOOR).n());
            long expiresAt = Long.parseLong(item.get(LeaseTableSchema.EXPIRES_AT).n());
            Slot held = Slot.ofIndex(Integer.parseInt(item.get(LeaseTableSchema.SLOT).n()));
            long previous = -1;
            for (JsonValue node : ids) {
                assertTrue(node.string().isPresent(), "IDs are JSON strings: " + answer.body());
                SnowflakeId id = CODEC.parse(TestJson.text(node));
                assertTrue(id.value() > previous, "increasing: " + answer.body());
                previous = id.value();
                assertEquals(held, id.slot(), "issued from the slot whose lease the table holds");
                assertTrue(id.unixMillis() >= floor && id.unixMillis() < expiresAt,
                        id.unixMillis() + " inside the confirmed window [" + floor + ", " + expiresAt + ")");
            }
        }
    }

    @Test
    void restApiEventGetsIdsAndARestShapedAnswer(TestTable table) {
        try (Function function = Functions.function(table)) {
            Invocation answer = function.call(fixture("rest-api-v1-post-ids.json"));

            assertEquals(200, answer.status(), answer::toString);
            assertEquals(7, answer.ids().size());
            JsonValue multi = answer.response().field("multiValueHeaders").orElseThrow();
            assertEquals("application/json", TestJson.text(TestJson.items(multi, "Content-Type").get(0)));
            assertFalse(answer.response().field("isBase64Encoded").flatMap(JsonValue::bool).orElseThrow());
        }
    }

    @Test
    void restApiRepeatedCountIsRefused(TestTable table) {
        try (Function function = Functions.function(table)) {
            Invocation answer = function.call(fixture("rest-api-v1-repeated-count.json"));

            assertEquals(400, answer.status(), answer::toString);
            assertEquals("invalid_count", answer.text("error"));
            assertTrue(answer.text("message").contains("from 1 to 4096"), answer.body());
            assertEquals(0, table.client().scan(s -> s.tableName(table.name())).count(), "a refused request leases nothing");
        }
    }

    @Test
    void aSignedCountIsQuotedBackAsTyped(TestTable table) {
        try (Function function = Functions.function(table)) {
            // payload 2.0 passes the query raw: '+' is a plus sign, not a form's space
            Invocation answer = function.call(TestEvents.get("/ids").query("count=+3"), dev.snowid.lambda.http.PayloadFormat.V2);

            assertEquals(400, answer.status(), answer::toString);
            assertEquals("invalid_count", answer.text("error"));
            assertTrue(answer.text("message").startsWith("count '+3' is not a whole number"), answer.body());
        }
    }

    @Test
    void decodesTheDesignExampleBehindANamedStage(TestTable table) {
        try (Function function = Functions.function(table)) {
            Invocation answer = function.call(fixture("http-api-v2-decode-named-stage.json"));

            assertEquals(200, answer.status(), answer::toString);
            assertEquals("1724551110457221119", answer.text("id"));
            assertEquals(1700000000000L, answer.number("timestamp"));
            assertEquals("2023-11-14T22:13:20Z", answer.text("time"));
            assertEquals(7, answer.number("datacenter"));
            assertEquals(13, answer.number("machine"));
            assertEquals(4095, answer.number("sequence"));
        }
    }

    @Test
    void base64BodyOfALeaseRequestIsDecoded(TestTable table) {
        String fixtureSecretSha = HexFormat.of().formatHex(BearerSecretCheck.sha256("fixture-secret"));
        try (Function function = Functions.function(table, FunctionSettings.LEASE_SECRET_SHA256, fixtureSecretSha)) {
            Invocation answer = function.call(fixture("http-api-v2-post-leases-base64.json"));

            assertEquals(201, answer.status(), answer::toString);
            assertEquals("host-a/pid-42", onlyItem(table).get(LeaseTableSchema.HOLDER).s(), "holder from the base64 body");
        }
    }

    @Test
    void leaseLifecycleThroughTheApi(TestTable table) {
        for (PayloadFormat format : PayloadFormat.values()) {
            try (Function function = Functions.function(table)) {
                Invocation acquired = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                        .body("{\"holder\":\"agent on host-b\"}"), format);
                assertEquals(201, acquired.status(), acquired::toString);
                String owner = acquired.text("owner");
                long fence = acquired.number("fence");
                long slot = acquired.number("slot");
                assertTrue(owner.matches("[0-9a-f]{32}"), owner);
                assertEquals(slot, acquired.number("datacenter") * 32 + acquired.number("machine"));
                assertTrue(acquired.number("expiresAt") > acquired.number("floor"));

                Invocation renewed = function.call(TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                        .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + "}"), format);
                assertEquals(200, renewed.status(), renewed::toString);
                assertTrue(renewed.number("expiresAt") >= acquired.number("expiresAt"));
                assertEquals(fence, renewed.number("fence"));

                Invocation released = function.call(TestEvents.request("DELETE", "/leases/" + slot).bearer(Functions.SECRET)
                        .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + ",\"lastIssued\":0}"), format);
                assertEquals(204, released.status(), released::toString);
                assertEquals("", released.body());

                Invocation afterRelease = function.call(TestEvents.request("PUT", "/leases/" + slot).bearer(Functions.SECRET)
                        .body("{\"owner\":\"" + owner + "\",\"fence\":" + fence + "}"), format);
                assertEquals(409, afterRelease.status(), afterRelease::toString);
                assertEquals("lease_lost", afterRelease.text("error"));
            }
        }
    }

    @Test
    void callersApiGatewayVerifiedWithIamNeedNoBearerSecret(TestTable table) {
        // LeaseAuth=AWS_IAM in the template: the Authorization header carries SigV4, API Gateway checked it.
        try (Function function = Functions.function(table, FunctionSettings.LEASE_SECRET_SHA256, null, FunctionSettings.LEASE_AUTH, "AWS_IAM",
                FunctionSettings.LEASE_PRINCIPALS, "arn:aws:iam::123456789012:user/legacy-app")) {
            for (String event : new String[] {"http-api-v2-post-leases-iam.json", "rest-api-v1-post-leases-iam.json"}) {
                Invocation answer = function.call(fixture(event));
                assertEquals(201, answer.status(), event + ": " + answer);
                assertTrue(answer.text("owner").matches("[0-9a-f]{32}"), answer.body());
            }
        }
    }

    @Test
    void aSigV4HeaderWithoutApiGatewaysIamCheckIsNotEnough(TestTable table) {
        try (Function function = Functions.function(table)) {
            Invocation answer = function.call(fixture("http-api-v2-post-leases-iam.json").replace("\"authorizer\"", "\"notAuthorizer\""));
            assertEquals(401, answer.status(), answer::toString);
            assertEquals(0, table.client().scan(s -> s.tableName(table.name())).count());
        }
    }

    @Test
    void leaseRoutesAreClosedWithoutAConfiguredSecret(TestTable table) {
        try (Function function = Functions.function(table, FunctionSettings.LEASE_SECRET_SHA256, null)) {
            Invocation answer = function.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);

            assertEquals(401, answer.status(), answer::toString);
            assertTrue(answer.text("message").contains(FunctionSettings.LEASE_SECRET_SHA256), answer.body());
            assertEquals(0, table.client().scan(s -> s.tableName(table.name())).count());
        }
    }

    @Test
    void exhaustedPoolIs503WithRetryAfterUntilASlotIsFree(TestTable table) {
        try (Function agentSide = Functions.function(table, FunctionSettings.DATACENTERS, "0", FunctionSettings.MACHINES, "0");
             Function function = Functions.function(table, FunctionSettings.DATACENTERS, "0", FunctionSettings.MACHINES, "0")) {
            Invocation lease = agentSide.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(201, lease.status(), lease::toString);

            Invocation refused = function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(503, refused.status(), refused::toString);
            assertEquals("no_free_slot", refused.text("error"));
            long retryAfter = Long.parseLong(refused.headers().get("Retry-After"));
            assertTrue(retryAfter >= 1 && retryAfter <= 60, "seconds until the held lease runs out: " + retryAfter);

            Invocation released = agentSide.call(TestEvents.request("DELETE", "/leases/0").bearer(Functions.SECRET)
                    .body("{\"owner\":\"" + lease.text("owner") + "\",\"fence\":" + lease.number("fence") + ",\"lastIssued\":0}"),
                    PayloadFormat.V2);
            assertEquals(204, released.status(), released::toString);
            Invocation served = function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            assertEquals(200, served.status(), served::toString);
        }
    }

    @Test
    void unreachableStoreIs503WithRetryAfter() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        FunctionSettings settings = FunctionSettings.from(Map.of(FunctionSettings.DYNAMODB_ENDPOINT, "http://127.0.0.1:" + closedPort));
        try (SnowidHandler handler = SnowidHandler.builder(settings).build()) {
            Invocation answer = Invocation.of(handler, TestEvents.get("/ids").query("count=3").v2());

            assertEquals(503, answer.status(), answer::toString);
            assertEquals("store_unavailable", answer.text("error"));
            assertTrue(Long.parseLong(answer.headers().get("Retry-After")) >= 1);
        }
    }

    @Test
    void storeTroubleIsAFixed503MessageForClientsAndTheCauseIsLogged(TestTable table) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        String missing = table.name() + "-missing";
        FunctionSettings settings = FunctionSettings.from(Functions.environment(table, FunctionSettings.TABLE, missing));
        try (SnowidHandler handler = SnowidHandler.builder(settings).logTo(new PrintStream(log, true, StandardCharsets.UTF_8)).build()) {
            for (TestEvents.Request request : List.of(TestEvents.get("/ids"),
                    TestEvents.request("POST", "/leases").bearer(Functions.SECRET))) {
                Invocation answer = Invocation.of(handler, request.v2());

                assertEquals(503, answer.status(), answer::toString);
                assertEquals("store_unavailable", answer.text("error"));
                String retryAfter = answer.headers().get("Retry-After");
                assertEquals("the lease store is unavailable; retry after " + retryAfter + " s", answer.text("message"));
                assertFalse(answer.body().contains(missing) || answer.body().contains(table.endpoint().toString())
                        || answer.body().contains(FunctionSettings.TABLE), "no table, endpoint or setting: " + answer.body());
            }
            String lines = log.toString(StandardCharsets.UTF_8);
            assertTrue(lines.contains("\"error_code\":\"store_unavailable\"") && lines.contains(missing) && lines.contains(FunctionSettings.TABLE),
                    "the operators' log has the cause: " + lines);
        }
    }

    @Test
    void ourOwnFaultIs500WithoutDetailsButLogged() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        LeaseStore broken = new BrokenStore();
        try (SnowidHandler handler = SnowidHandler.builder(FunctionSettings.from(Map.of())).store(broken)
                .logTo(new PrintStream(log, true, StandardCharsets.UTF_8)).build()) {
            Invocation answer = Invocation.of(handler, TestEvents.get("/ids").v2());

            assertEquals(500, answer.status(), answer::toString);
            assertEquals("internal", answer.text("error"));
            assertFalse(answer.body().contains("sensitive detail"), answer.body());
            assertFalse(answer.body().contains("Exception"), answer.body());
            assertTrue(answer.text("message").contains(answer.requestId()), "points at the log line: " + answer.body());
            String line = log.toString(StandardCharsets.UTF_8);
            assertTrue(line.contains("sensitive detail") && line.contains(answer.requestId()), line);
        }
    }

    @Test
    void initTouchesNoTableAndHealthReportsNoSlotUntilTheFirstId(TestTable table) {
        try (Function function = Functions.function(table)) {
            Invocation before = function.call(TestEvents.get("/health"), PayloadFormat.V2);
            assertEquals(200, before.status(), before::toString);
            assertTrue(before.field("slot").orElseThrow().isNull(), before.body());
            assertTrue(before.field("leaseMillisLeft").orElseThrow().isNull(), before.body());
            assertEquals(0, table.client().scan(s -> s.tableName(table.name())).count(), "no lease at init or on /health");

            function.call(TestEvents.get("/ids"), PayloadFormat.V2);
            Invocation after = function.call(TestEvents.get("/health"), PayloadFormat.V1);
            Slot held = Slot.ofIndex(Integer.parseInt(onlyItem(table).get(LeaseTableSchema.SLOT).n()));
            assertEquals(held.toString(), after.text("slot"));
            long left = after.number("leaseMillisLeft");
            assertTrue(left > 0 && left <= LeaseTerms.DEFAULT_LEASE_MILLIS, after.body());
            assertNotNull(after.text("version"));
        }
    }

    private static Map<String, AttributeValue> onlyItem(TestTable table) {
        List<Map<String, AttributeValue>> items = table.client().scan(s -> s.tableName(table.name())).items();
        assertEquals(1, items.size(), "one lease in the table: " + items);
        return items.get(0);
    }

    static String fixture(String name) {
        try (InputStream in = SnowidHandlerTest.class.getResourceAsStream("/events/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A store whose every call fails in a way no client can have caused. */
    static final class BrokenStore implements LeaseStore {
        private static IllegalStateException fault() {
            return new IllegalStateException("sensitive detail: bug in the store");
        }

        @Override
        public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
            throw fault();
        }

        @Override
        public Optional<Lease> tryAcquireUnheld(Slot slot, String owner, String holder, long now, long expiresAt) {
            throw fault();
        }

        @Override
        public dev.snowid.lease.RequestClaim claim(String requestId, String holder, String owner, long until) {
            throw fault();
        }

        @Override
        public boolean recordGrant(dev.snowid.lease.RequestClaim read, Lease lease) {
            throw fault();
        }

        @Override
        public Optional<Lease> grantedFor(dev.snowid.lease.RequestClaim claim, long now) {
            throw fault();
        }

        @Override
        public Lease renew(Slot slot, String owner, long fence, long newExpiresAt) {
            throw fault();
        }

        @Override
        public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
            throw fault();
        }

        @Override
        public Map<Slot, Long> ownedExpiries() {
            throw fault();
        }

        @Override
        public List<dev.snowid.lease.HeldSlot> heldSlots() {
            throw fault();
        }

        @Override
        public OptionalLong clockSkewMillis() {
            return OptionalLong.empty();
        }

        @Override
        public void forgetClockSkew() {
        }
    }
}
