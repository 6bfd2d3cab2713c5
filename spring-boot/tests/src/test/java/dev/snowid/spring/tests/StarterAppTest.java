package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import dev.snowid.client.SnowidClient;
import dev.snowid.lease.Lease;
import dev.snowid.spring.tests.app.Invoice;
import dev.snowid.spring.tests.app.InvoiceRepository;
import dev.snowid.spring.tests.app.Order;
import dev.snowid.spring.tests.app.OrderMapper;
import dev.snowid.spring.tests.app.TestApp;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The starter in an ordinary app (web, actuator, JPA on Hibernate, MyBatis-Plus, H2) against the
 * real lease API, with nothing configured but the two properties: both ORMs take their keys from
 * the leased slot, IDs travel as JSON strings, malformed ones are a 400, health and meters report.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class StarterAppTest {

    private static final int THREADS = 4;
    private static final int PER_THREAD = 5_000;
    private static final Pattern ID_AS_STRING = Pattern.compile("\"id\":\"\\d{10,19}\"");

    @DynamicPropertySource
    static void lease(DynamicPropertyRegistry registry) {
        registry.add("snowid.lease.url", () -> LeaseApi.shared().url());
        registry.add("snowid.lease.secret", () -> LeaseApi.SECRET);
    }

    @Autowired
    SnowidClient ids;
    @Autowired
    InvoiceRepository invoices;
    @Autowired
    OrderMapper orders;
    @Value("${local.server.port}")
    int port;

    private Http http;

    @BeforeEach
    void client() {
        http = new Http(port);
    }

    @Test
    void jpaInsertsOnFourThreadsStoreUniqueIdsFromTheLeasedSlot() throws Exception {
        Lease first = ids.currentLease().orElseThrow();
        List<Long> stored = Threads.run(THREADS, PER_THREAD, () -> invoices.save(new Invoice("jpa")).getId());
        IssuedIds.assertIssuedUnder(first, ids, stored, THREADS * PER_THREAD);
        assertEquals(stored.size(), invoices.findAllById(stored).size(), "every ID is a stored row");
    }

    @Test
    void mybatisPlusInsertsOnFourThreadsStoreUniqueIdsFromTheLeasedSlot() throws Exception {
        Lease first = ids.currentLease().orElseThrow();
        List<Long> stored = Threads.run(THREADS, PER_THREAD, () -> {
            Order order = new Order("mybatis-plus");
            orders.insert(order);
            return order.getId();
        });
        IssuedIds.assertIssuedUnder(first, ids, stored, THREADS * PER_THREAD);
        assertEquals(stored.size(), orders.selectByIds(stored).size(), "every ID is a stored row");
        long viaIdWorker = IdWorker.getId(); // MyBatis-Plus routes its static helper to the installed generator
        assertEquals(first.slot(), ids.codec().decode(viaIdWorker).slot(), "IdWorker.getId() from the leased slot");
    }

    @Test
    void controllersWriteIdsAsJsonStrings() {
        HttpResponse<String> invoice = http.post("/invoices?item=book", null);
        assertEquals(200, invoice.statusCode(), invoice::body);
        assertTrue(ID_AS_STRING.matcher(invoice.body()).find(), () -> "@SnowidId Long written as a string: " + invoice.body());
        String id = (String) Http.json(invoice).get("id");

        HttpResponse<String> order = http.post("/orders?item=pen", null);
        assertEquals(200, order.statusCode(), order::body);
        assertTrue(ID_AS_STRING.matcher(order.body()).find(), () -> "@JsonFormat(shape = STRING) Long: " + order.body());

        HttpResponse<String> decoded = http.get("/ids/" + id);
        assertEquals(200, decoded.statusCode(), decoded::body);
        Map<String, Object> fields = Http.json(decoded);
        assertEquals(id, fields.get("id"), "SnowflakeId written as a string");
        assertEquals(ids.currentLease().orElseThrow().slot().machine(), ((Number) fields.get("machine")).intValue());

        HttpResponse<String> found = http.get("/invoices/" + id);
        assertEquals(200, found.statusCode(), found::body);
        assertEquals("book", Http.json(found).get("item"));
        assertEquals(id, Http.json(http.get("/ids?id=" + id)).get("id"), "@RequestParam SnowflakeId");
    }

    @Test
    void jsonBodiesCarryAnIdAsAStringOrANumber() {
        long id = ids.nextId();
        for (String body : List.of("{\"id\":\"" + id + "\"}", "{\"id\":" + id + "}")) {
            HttpResponse<String> echoed = http.post("/ids/echo", body);
            assertEquals(200, echoed.statusCode(), echoed::body);
            assertEquals(Long.toString(id), Http.json(echoed).get("id"), body);
        }
        HttpResponse<String> malformed = http.post("/ids/echo", "{\"id\":\"12x\"}");
        assertEquals(400, malformed.statusCode(), malformed::body);
    }

    @Test
    void aMalformedIdInThePathOrAParameterIsA400SayingWhatIsWrong() {
        HttpResponse<String> malformed = http.get("/ids/12x");
        assertInvalid(malformed, "'12x' is not an ID: character 3 is 'x'");
        // The answer docs/spring-boot.md shows, word for word.
        assertEquals("{\"status\":400,\"error\":\"invalid_id\",\"message\":\"parameter 'id': '12x' is not an ID: character 3 is 'x';"
                + " a Snowflake ID is written as decimal digits only, from 0 to 9223372036854775807\"}", malformed.body());
        assertInvalid(http.get("/ids?id=-5"), "'-5' is not an ID: character 1 is '-'");
        assertInvalid(http.get("/ids/99999999999999999999"), "is larger than 9223372036854775807");
        assertInvalid(http.get("/invoices/abc"), "'abc' is not an ID");
    }

    private static void assertInvalid(HttpResponse<String> response, String what) {
        assertEquals(400, response.statusCode(), response::body);
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("application/json"), response::body);
        Map<String, Object> body = Http.json(response);
        assertEquals("invalid_id", body.get("error"), response::body);
        String message = (String) body.get("message");
        assertTrue(message.contains(what), () -> "says what is wrong: " + message);
        assertTrue(message.contains("decimal digits only, from 0 to 9223372036854775807"), () -> "says what is allowed: " + message);
        assertFalse(response.body().contains("Exception"), () -> "no stack trace or exception name: " + response.body());
    }

    @Test
    void healthIsUpWithTheLeaseButNeverItsOwnerToken() {
        HttpResponse<String> response = http.get("/actuator/health/snowid");
        assertEquals(200, response.statusCode(), response::body);
        Map<String, Object> health = Http.json(response);
        assertEquals("UP", health.get("status"), response::body);
        Map<String, Object> details = Http.map(health.get("details"));
        Lease lease = ids.currentLease().orElseThrow();
        assertEquals(lease.slot().toString(), details.get("slot"));
        assertEquals(lease.slot().index(), ((Number) details.get("node")).intValue());
        long left = ((Number) details.get("leaseMillisLeft")).longValue();
        assertTrue(left > 0 && left <= 5_000, () -> "ms left of a 5 s lease: " + left);
        assertEquals(ids.codec().epochMillis(), ((Number) details.get("epochMillis")).longValue());
        assertFalse(response.body().contains(lease.owner()), "the owner token is the lease's only credential");

        HttpResponse<String> readiness = http.get("/actuator/health/readiness");
        assertEquals(200, readiness.statusCode(), readiness::body);
        assertTrue(readiness.body().contains("\"snowid\""), () -> "snowid is in the readiness group: " + readiness.body());
    }

    @Test
    void metersCountWhatTheClientDid() {
        for (int i = 0; i < 25; i++) {
            http.post("/invoices?item=metered", null);
        }
        long issued = ids.stats().idsIssued();
        assertEquals(issued, meter("snowid.ids.issued"), "IDs issued");
        assertTrue(issued >= 25, "at least the 25 inserts");
        assertEquals(ids.stats().renewals(), meter("snowid.lease.renewals"), 1.0, "renewals (one may land in between)");
        assertEquals(0, meter("snowid.leases.lost"));
        assertEquals(0, meter("snowid.ids.refused"));
        assertEquals(0, meter("snowid.lease.renewal.failures"));
        double left = meter("snowid.lease.remaining");
        assertTrue(left > 0 && left <= 5_000, () -> "lease ms left: " + left);
        for (String name : List.of("snowid.ids.issued", "snowid.ids.refused", "snowid.lease.renewals", "snowid.lease.renewal.failures",
                "snowid.leases.lost", "snowid.lease.remaining")) {
            Object description = Http.json(http.get("/actuator/metrics/" + name)).get("description");
            assertNotNull(description, name + " has a description");
            assertFalse(((String) description).isBlank(), name);
        }
        Map<String, Object> refused = Http.json(http.get("/actuator/metrics/snowid.ids.refused"));
        List<Object> tags = Http.list(Http.map(Http.list(refused.get("availableTags")).get(0)).get("values"));
        assertTrue(tags.containsAll(List.of("no_free_slot", "store_unavailable", "clock_behind", "clock_skew", "unavailable")),
                () -> "refusals by reason: " + tags);
    }

    private double meter(String name) {
        HttpResponse<String> response = http.get("/actuator/metrics/" + name);
        assertEquals(200, response.statusCode(), () -> name + ": " + response.body());
        return ((Number) Http.map(Http.list(Http.json(response).get("measurements")).get(0)).get("value")).doubleValue();
    }

    @Test
    void theSecretIsInNoActuatorEndpoint() {
        for (String endpoint : List.of("/actuator/env", "/actuator/configprops", "/actuator/env/snowid.lease.secret",
                "/actuator/health", "/actuator/metrics")) {
            HttpResponse<String> response = http.get(endpoint);
            assertTrue(response.statusCode() == 200, () -> endpoint + ": " + response.statusCode());
            assertFalse(response.body().contains(LeaseApi.SECRET), () -> endpoint + " shows the secret");
        }
        // The endpoints show values (show-values=always), so the masking is the starter's, not Boot's default.
        String env = http.get("/actuator/env").body();
        assertTrue(env.contains(LeaseApi.shared().url()), "env shows other values");
        assertTrue(http.get("/actuator/env/snowid.lease.secret").body().contains("******"), "the secret is masked");
        String configprops = http.get("/actuator/configprops").body();
        assertTrue(configprops.contains("\"secret\":\"******\""), () -> "configprops masks the bound secret: " + configprops);
    }
}
