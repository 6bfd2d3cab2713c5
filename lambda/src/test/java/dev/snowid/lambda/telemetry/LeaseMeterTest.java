package dev.snowid.lambda.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Concurrent requests (Lambda Managed Instances) each count their own lease outcomes: a grant made
 * on one request's thread is that request's, whatever other requests begin or end meanwhile.
 */
class LeaseMeterTest {

    private static final Lease LEASE = new Lease(Slot.of(1, 2), "owner", 1, LeaseWindow.of(1_000, 61_000));

    @Test
    void eachRequestThreadCountsItsOwnOutcomes() throws Exception {
        LeaseMeter meter = new LeaseMeter();
        LeaseEvents events = meter.counting(LeaseHolder.FUNCTION, LeaseEvents.NONE);
        ExecutorService requestA = Executors.newSingleThreadExecutor();
        try {
            LeaseActivity a = requestA.submit(meter::begin).get(10, TimeUnit.SECONDS);
            LeaseActivity b = meter.begin(); // request B begins on this thread after A
            requestA.submit(() -> events.granted(LEASE)).get(10, TimeUnit.SECONDS);
            meter.end(); // B ends while A is still running
            requestA.submit(() -> events.renewed(LEASE)).get(10, TimeUnit.SECONDS);

            assertEquals(1, a.acquisitions(LeaseHolder.FUNCTION), "A's grant is A's");
            assertEquals(1, a.renewals(LeaseHolder.FUNCTION), "B's end does not take A's activity away");
            assertEquals(0, b.acquisitions(LeaseHolder.FUNCTION), "B granted nothing");
        } finally {
            requestA.shutdownNow();
        }
    }
}
