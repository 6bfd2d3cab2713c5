package dev.snowid.spring.tests;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.Slot;
import dev.snowid.client.SnowidClient;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The lease taken over by another holder, through the lease table, and every other slot held: the
 * app refuses IDs, and its health and readiness say so (OUT_OF_SERVICE, with the reason), its
 * meters count the loss and the refusals; once slots free, it leases anew and is UP again.
 */
@ExtendWith(OutputCaptureExtension.class)
class LeaseLossTest {

    @Test
    void healthGoesOutOfServiceWhileTheLeaseIsLostAndUpOnceANewOneIsTaken(CapturedOutput output) {
        try (LeaseApi api = LeaseApi.start(8); ConfigurableApplicationContext app = Apps.run(api)) {
            SnowidClient ids = app.getBean(SnowidClient.class);
            Http http = new Http(Apps.port(app));
            assertEquals("UP", status(http));
            Slot slot = ids.currentLease().orElseThrow().slot();

            api.takeOver(slot);
            // No slot left to lease anew; the API tells the client to ask again in 20 s (when these end).
            api.holdAllFree(20_000);
            await("health OUT_OF_SERVICE after the takeover").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50))
                    .untilAsserted(() -> assertEquals("OUT_OF_SERVICE", status(http), () -> http.get("/actuator/health/snowid").body()));
            HttpResponse<String> health = http.get("/actuator/health/snowid");
            assertEquals(503, health.statusCode(), "OUT_OF_SERVICE answers 503, for probes");
            String reason = (String) Http.map(Http.json(health).get("details")).get("reason");
            assertTrue(reason.startsWith("no lease is in force: the last one was lost (1 lost so far)"), reason);
            HttpResponse<String> readiness = http.get("/actuator/health/readiness");
            assertEquals(503, readiness.statusCode(), readiness::body);
            assertTrue(readiness.body().contains("OUT_OF_SERVICE"), readiness::body);

            assertThrows(IdUnavailableException.class, ids::nextId, "fail closed: no ID without a lease");
            HttpResponse<String> refusedInsert = http.post("/invoices?item=refused", null);
            assertEquals(503, refusedInsert.statusCode(), () -> "an insert without an ID: " + refusedInsert.body());
            assertTrue(refusedInsert.headers().firstValue("Retry-After").isPresent(), "says when to try again");
            Map<String, Object> refusal = Http.json(refusedInsert);
            assertEquals("unavailable", refusal.get("error"), refusedInsert::body);
            assertTrue(((String) refusal.get("message")).contains("no ID was issued"), refusedInsert::body);
            assertFalse(refusedInsert.body().contains(api.url()), "no lease API address to a client");
            assertEquals(1.0, meter(http, "snowid.leases.lost"));
            long refusals = ids.stats().refusals().values().stream().mapToLong(Long::longValue).sum();
            assertTrue(refusals >= 2, "the two calls above at least");
            assertEquals((double) refusals, meter(http, "snowid.ids.refused"));

            api.freeAll();
            await("health UP again once slots are free").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(50))
                    .untilAsserted(() -> assertEquals("UP", status(http), () -> http.get("/actuator/health/snowid").body()));
            assertTrue(ids.nextId() > 0);
            assertFalse(output.getAll().contains(LeaseApi.SECRET), "the secret in a log line");
        }
    }

    private static String status(Http http) {
        Map<String, Object> health = Http.json(http.get("/actuator/health/snowid"));
        return (String) health.get("status");
    }

    private static double meter(Http http, String name) {
        HttpResponse<String> response = http.get("/actuator/metrics/" + name);
        return ((Number) Http.map(Http.list(Http.json(response).get("measurements")).get(0)).get("value")).doubleValue();
    }
}
