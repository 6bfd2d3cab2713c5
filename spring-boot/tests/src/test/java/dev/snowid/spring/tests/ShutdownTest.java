package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.SnowidLeaseLifecycle;
import dev.snowid.spring.tests.app.ShutdownProbe;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Closing the app: a request in flight when the close begins still gets its ID (graceful
 * shutdown first, the lease's release after the web server stopped), and then the slot map shows
 * the slot free at once, not only once the lease runs out.
 */
@ExtendWith(OutputCaptureExtension.class)
class ShutdownTest {

    private static final String HOST = System.getenv("HOSTNAME") != null && !System.getenv("HOSTNAME").isEmpty()
            ? System.getenv("HOSTNAME") : hostName();

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void requestsInFlightGetIdsAndThenTheSlotIsFree(CapturedOutput output) throws Exception {
        try (LeaseApi api = LeaseApi.start(8)) {
            // The secret from the environment variable alone, as in a container.
            ConfigurableApplicationContext app = Apps.builder(api.url(), null)
                    .initializers(context -> context.getEnvironment().getPropertySources().addFirst(
                            new SystemEnvironmentPropertySource("test-environment", Map.of("SNOWID_LEASE_SECRET", LeaseApi.SECRET))))
                    .run();
            SnowidClient ids = app.getBean(SnowidClient.class);
            Slot slot = ids.currentLease().orElseThrow().slot();
            assertTrue(api.held(slot), "the slot map shows the slot held");
            String holder = api.slotMap().leases().stream().filter(entry -> entry.lease().slot().equals(slot)).findFirst()
                    .orElseThrow().lease().holder();
            assertEquals("starter-test@" + HOST, holder, "spring.application.name and the host name");
            for (String webServerLifecycle : new String[] {"webServerGracefulShutdown", "webServerStartStop"}) {
                int phase = app.getBean(webServerLifecycle, SmartLifecycle.class).getPhase();
                assertTrue(phase > SnowidLeaseLifecycle.PHASE, () -> webServerLifecycle + " stops before the lease is released");
            }

            Http http = new Http(Apps.port(app));
            CompletableFuture<HttpResponse<String>> inFlight = CompletableFuture.supplyAsync(() -> http.get("/slow"));
            assertTrue(app.getBean(ShutdownProbe.class).awaitRequestInFlight(), "the request reached the controller");
            CompletableFuture<Void> closing = CompletableFuture.runAsync(app::close);

            HttpResponse<String> answer = inFlight.get(30, TimeUnit.SECONDS);
            assertEquals(200, answer.statusCode(), answer::body);
            Map<String, Object> id = Http.json(answer);
            assertEquals(slot.machine(), ((Number) id.get("machine")).intValue(), "an ID from the slot, issued while closing");
            closing.get(30, TimeUnit.SECONDS);

            assertTrue(ids.isClosed());
            assertFalse(api.held(slot), () -> "released on close: " + api.slotMap().toJson());
            assertFalse(output.getAll().contains(LeaseApi.SECRET), "the secret in a log line");
        }
    }
}
