package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The function answers the route API Gateway matched (payload 2.0's {@code routeKey}, 1.0's
 * {@code resource} with {@code httpMethod}), never a path that only decodes to one: a request that
 * reached {@code $default} passed none of the routes' own authorization (on a stack with
 * {@code IdsAuth=AWS_IAM}, the IAM check of {@code /ids}), so it gets a 404 or 405 and nothing else.
 */
class RouteKeyRoutingTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    @Test
    void theGatewaysMatchingAsPlayedLocallyIsExactOnTheMethodAndThePathAsSent() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("GET /ids", "GET /ids");
        expected.put("POST /ids", "POST /ids");
        expected.put("GET /ids/1724551110457221119", "GET /ids/{id}");
        expected.put("GET /ids/%31", "GET /ids/{id}");
        expected.put("PUT /leases/37", "PUT /leases/{slot}");
        expected.put("GET /health", "GET /health");
        for (String unmatched : new String[] {"get /ids", "Get /ids", "GET /%69ds", "GET /%69%64%73", "GET /IDS", "GET /ids/",
            "GET //ids", "GET /ids/1/2", "PUT /leases", "POST /%6Ceases", "PATCH /leases/37", "GET /leases%2F37", "HEAD /ids", "GET /"}) {
            expected.put(unmatched, Endpoint.DEFAULT_ROUTE_KEY);
        }
        expected.forEach((request, key) -> {
            String[] parts = request.split(" ");
            assertEquals(key, Endpoint.routeKeyOf(parts[0], parts[1]), request);
        });
        for (Endpoint endpoint : Endpoint.values()) {
            assertEquals(endpoint, Endpoint.ofRouteKey(endpoint.routeKey()).orElseThrow());
        }
        assertTrue(Endpoint.ofRouteKey(Endpoint.DEFAULT_ROUTE_KEY).isEmpty());
        assertTrue(Endpoint.ofRouteKey("ANY /ids").isEmpty());
    }

    @Test
    void aPercentEncodedOrLowerCaseIdsRequestThatReachedDefaultIssuesNothingInEitherFormat() {
        try (Function ids = Functions.inMemory(store, FunctionSettings.ROLE, "ids", FunctionSettings.AGENT_SLOTS, "4")) {
            for (PayloadFormat format : PayloadFormat.values()) {
                for (String path : new String[] {"/%69ds", "/%69%64%73", "/i%64s"}) {
                    for (String method : new String[] {"GET", "POST"}) {
                        Invocation refused = ids.call(TestEvents.request(method, path), format);
                        assertEquals(404, refused.status(), format + " " + method + " " + path + ": " + refused);
                        assertFalse(refused.body().contains("\"ids\""), refused::toString);
                        assertTrue(refused.text("message").contains("as sent"), refused::toString);
                    }
                }
                Invocation lowerCase = ids.call(TestEvents.request("get", "/ids"), format);
                assertEquals(405, lowerCase.status(), format + ": " + lowerCase);
                assertEquals("GET, POST", lowerCase.headers().get("Allow"), lowerCase::toString);
                assertTrue(lowerCase.text("message").startsWith("method get is not allowed on /ids"), lowerCase::toString);
            }
            assertEquals(0, store.rows().size(), "no request took a lease to issue from");
            assertEquals(200, ids.call(TestEvents.get("/ids"), PayloadFormat.V2).status(), "the matched route is answered");
            assertEquals(200, ids.call(TestEvents.get("/ids"), PayloadFormat.V1).status(), "the matched resource is answered");
        }
    }

    @Test
    void anEventWhoseRouteKeyIsDefaultOrNoneIsNeverAnsweredAsARouteWhateverItsPath() {
        try (Function all = Functions.inMemory(store)) {
            for (PayloadFormat format : PayloadFormat.values()) {
                for (String[] request : new String[][] {{"GET", "/ids"}, {"GET", "/ids/1724551110457221119"}, {"GET", "/health"}}) {
                    Invocation refused = all.call(TestEvents.request(request[0], request[1]).routeKey(Endpoint.DEFAULT_ROUTE_KEY), format);
                    assertEquals(404, refused.status(), format + " " + request[1] + ": " + refused);
                }
                Invocation lease = all.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET)
                        .routeKey(Endpoint.DEFAULT_ROUTE_KEY), format);
                assertEquals(404, lease.status(), format + ": " + lease);
            }
            String noRouteKey = TestEvents.get("/ids").in(PayloadFormat.V2).replace("\"routeKey\":\"GET /ids\",", "")
                    .replace(",\"routeKey\":\"GET /ids\"", "");
            assertFalse(noRouteKey.contains("routeKey"), noRouteKey);
            Invocation none = all.call(noRouteKey);
            assertEquals(404, none.status(), "an event naming no route counts as $default: " + none);
            assertEquals(0, store.rows().size(), "nothing was leased");
        }
    }

    @Test
    void aRouteKeyThePathOrMethodDoesNotFitIsNotAnswered() {
        try (Function all = Functions.inMemory(store)) {
            Invocation wrongPath = all.call(TestEvents.get("/nope").routeKey("GET /ids"), PayloadFormat.V2);
            assertEquals(404, wrongPath.status(), wrongPath::toString);
            assertTrue(wrongPath.text("message").contains("the event names the route GET /ids"), wrongPath::toString);
            Invocation wrongMethod = all.call(TestEvents.request("DELETE", "/ids").routeKey("GET /ids"), PayloadFormat.V2);
            assertEquals(404, wrongMethod.status(), wrongMethod::toString);
            assertEquals(0, store.rows().size());
        }
    }
}
