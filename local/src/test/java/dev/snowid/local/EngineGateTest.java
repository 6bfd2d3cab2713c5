package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class EngineGateTest {

    @Test
    void onlyTheRoutesThatUseTheLeaseTableAreHeldBack() {
        for (String path : List.of("/ids", "/leases", "/leases/37", "/leases/abc")) {
            assertTrue(EngineGate.touchesTheTable(path), path);
        }
        // Decoding, health and unknown paths do not need the table; the handler answers them as usual.
        for (String path : List.of("/ids/1724551110457221119", "/health", "/", "/leases/37/x", "/idsx", "/nope")) {
            assertFalse(EngineGate.touchesTheTable(path), path);
        }
    }

    @Test
    void theLeaseRoutesAreTheOnesCountedBeforeTheirAnswer() {
        assertTrue(EngineGate.isLeaseRoute("/leases") && EngineGate.isLeaseRoute("/leases/37"));
        assertFalse(EngineGate.isLeaseRoute("/ids") || EngineGate.isLeaseRoute("/leases/37/x") || EngineGate.isLeaseRoute("/leasesx"));
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        long now = 1_000_000;
        assertEquals(1, EngineStatus.restarting("why", now).retryAfterSeconds(now));
        assertEquals(6, EngineStatus.quarantined("why", now + 5_001).retryAfterSeconds(now));
        assertEquals(1, EngineStatus.quarantined("why", now - 10).retryAfterSeconds(now));
    }
}
