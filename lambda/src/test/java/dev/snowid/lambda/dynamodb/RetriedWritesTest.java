package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A conditional write whose first attempt landed but whose answer was lost: the SDK retries it,
 * and the retry's condition fails because of our own first write. The store must still report
 * what happened (the lease is ours; the release landed), not a stranger's hold or a lost lease.
 */
@OnEveryEngine
class RetriedWritesTest {

    private static final Slot SLOT = Slot.of(2, 5);
    private static final String ME = "0123456789abcdef0123456789abcdef";
    private static final String OTHER = "fedcba9876543210fedcba9876543210";

    private FaultyProxy proxy;
    private DynamoDbLeaseStore store;
    private DynamoDbLeaseStore direct;
    private final SdkCalls calls = new SdkCalls();

    @BeforeEach
    void storeBehindProxy(TestTable table) {
        proxy = FaultyProxy.inFrontOf(table.endpoint());
        store = DynamoDbLeaseStore.builder().table(table.name())
                .client(LeaseTableClient.builder().endpoint(proxy.endpoint()).interceptor(calls)).build();
        direct = TestStores.store(table, WallClock.SYSTEM);
    }

    @AfterEach
    void close() {
        store.close();
        direct.close();
        proxy.close();
    }

    @Test
    void anAcquisitionWhoseAnswerWasLostIsOursNotAStrangers() {
        long now = now();
        proxy.loseNextAnswers(1);

        Optional<Lease> lease = store.tryAcquire(SLOT, ME, "h", now, now + 60_000);

        assertTrue(lease.isPresent(), "the first attempt took the slot for us; reporting it held strands it for a lease");
        assertEquals(ME, lease.get().owner());
        assertEquals(1, lease.get().fence(), "acquired once, not twice");
        assertTrue(calls.attempts() >= 3, "lost answer, retry, confirmation: " + calls.attempts() + " attempts");
        assertFalse(direct.tryAcquire(SLOT, OTHER, "h", now + 1, now + 60_001).isPresent(), "and it really is held");
        direct.renew(SLOT, ME, 1, now + 61_000); // ours: owner token and fence match the table
    }

    @Test
    void aRetriedAcquisitionOfASlotAnotherHoldsStillReportsItHeld() {
        long now = now();
        direct.tryAcquire(SLOT, OTHER, "h", now, now + 60_000).orElseThrow();
        proxy.failNext(1);

        assertFalse(store.tryAcquire(SLOT, ME, "h", now + 1, now + 60_001).isPresent());
        assertEquals(3, calls.attempts(), "HTTP 500, retry refused by the condition, confirmation refused too");
    }

    @Test
    void aReleaseWhoseAnswerWasLostLandedAndIsNotReportedLost() {
        long now = now();
        Lease lease = store.tryAcquire(SLOT, ME, "h", now, now + 60_000).orElseThrow();
        proxy.loseNextAnswers(1);

        store.release(SLOT, ME, lease.fence(), now + 10);

        Lease next = direct.tryAcquire(SLOT, OTHER, "h", now + 20, now + 60_020).orElseThrow();
        assertEquals(now + 11, next.window().floor(), "the release wrote lastIssued + 1 once");
    }

    @Test
    void aRetriedReleaseOfALeaseTakenOverIsStillLost() {
        long now = now();
        Lease lease = store.tryAcquire(SLOT, ME, "h", now, now + 1_000).orElseThrow();
        direct.tryAcquire(SLOT, OTHER, "h", now + 1_001, now + 61_001).orElseThrow();
        proxy.failNext(1);

        assertThrows(LeaseLostException.class, () -> store.release(SLOT, ME, lease.fence(), now + 10));
    }

    @Test
    void aCollisionWithoutRetryCostsOneRoundTrip() {
        long now = now();
        direct.tryAcquire(SLOT, OTHER, "h", now, now + 60_000).orElseThrow();

        assertFalse(store.tryAcquire(SLOT, ME, "h", now + 1, now + 60_001).isPresent());
        assertEquals(1, calls.attempts(), "no confirmation on the normal path");
    }

    private static long now() {
        return WallClock.SYSTEM.millis();
    }
}
