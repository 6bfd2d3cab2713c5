package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineGateTest {

    @Test
    void whileNotServingOnlyDecodingAndHealthPassOnTheDecodedPath() {
        for (String target : List.of("/ids/1724551110457221119", "/health", "/%68ealth", "/ids/%31724551110457221119")) {
            assertTrue(EngineGate.needsNoLease(RequestTarget.decodedPath(URI.create(target))), target);
        }
        // Everything else is held back: the table's routes however they are spelled, unknown paths, undecodable ones.
        for (String target : List.of("/ids", "/%69ds", "/%69%64%73", "/leases", "/%6Ceases", "/leases/37", "/leases%2F37",
                "/ids/", "/", "/nope", "/ids/1/x", "/ids%2F1")) {
            assertFalse(EngineGate.needsNoLease(RequestTarget.decodedPath(URI.create(target))), target);
        }
    }

    @Test
    void theLeaseLaneIsChosenByTheRouteTheGatewayWouldMatch() {
        for (String request : List.of("POST /leases", "GET /leases", "PUT /leases/37", "DELETE /leases/%33")) {
            assertEquals(RouteLane.LEASES, lane(request), request);
        }
        // As the template's $default route: whatever matches no route goes to the ids function.
        for (String request : List.of("GET /ids", "POST /%6Ceases", "post /leases", "PATCH /leases/37", "PUT /leases/37/x",
                "GET /leasesx", "PUT /leases%2F37", "GET /health", "GET /leases/")) {
            assertEquals(RouteLane.IDS, lane(request), request);
        }
    }

    private static RouteLane lane(String request) {
        String[] parts = request.split(" ");
        return RouteLane.of(parts[0], RequestTarget.rawPath(URI.create(parts[1])));
    }

    @Test
    void onlyLoopbackNamesWithAPortAreAnswered() {
        for (String host : List.of("localhost:8080", "127.0.0.1:8080", "[::1]:8080", "LocalHost:8080", "localhost:1")) {
            assertTrue(LocalHost.allowed(host), host);
        }
        for (String host : List.of("localhost", "evil.example:8080", "127.0.0.2:8080", "localhost.evil.example:8080",
                "", "[::1]", "localhost:", "localhost:80x", "evil.localhost:8080", "127.0.0.1.nip.io:8080")) {
            assertFalse(LocalHost.allowed(host), host);
        }
        assertFalse(LocalHost.allowed(null));
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        long now = 1_000_000;
        assertEquals(1, EngineStatus.restarting("why", now).retryAfterSeconds(now));
        assertEquals(6, EngineStatus.quarantined("why", now + 5_001).retryAfterSeconds(now));
        assertEquals(1, EngineStatus.quarantined("why", now - 10).retryAfterSeconds(now));
    }
}
