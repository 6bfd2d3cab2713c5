package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The call in progress, timed for the messages of callers that do not wait for it: on a real thread that hangs in the source. */
class TimedLeaseSourceTest {

    private static final Lease LEASE = new Lease(Slot.of(0, 1), "0123456789abcdef0123456789abcdef", 1,
            LeaseWindow.of(1_700_000_000_000L, 1_700_000_060_000L));

    private final CountDownLatch entered = new CountDownLatch(1);
    private final CountDownLatch answer = new CountDownLatch(1);
    private final TimedLeaseSource timed = new TimedLeaseSource(new HangingSource());

    @Test
    void aHangingCallIsTimedUntilItAnswers() throws InterruptedException {
        assertEquals(-1, timed.callInProgressMillis(), "no call yet");
        AtomicReference<Lease> renewed = new AtomicReference<>();
        Thread renewer = new Thread(new Runnable() {
            @Override
            public void run() {
                renewed.set(timed.renew(LEASE));
            }
        });
        renewer.start();
        assertTrue(entered.await(10, TimeUnit.SECONDS), "the renewal reached the source");
        Thread.sleep(20); // the call began before it entered the source
        long inProgress = timed.callInProgressMillis();
        assertTrue(inProgress >= 20, "in progress for " + inProgress + " ms");

        answer.countDown();
        renewer.join(10_000);
        assertFalse(renewer.isAlive(), "the renewal answered");
        assertSame(LEASE, renewed.get());
        assertEquals(-1, timed.callInProgressMillis(), "no call after the answer");
    }

    @Test
    void aFailedCallIsNoLongerInProgressAndOtherAnswersPassThrough() {
        LeaseStoreUnavailableException down = assertThrows(LeaseStoreUnavailableException.class, timed::acquire);
        assertEquals("down", down.getMessage());
        assertEquals(-1, timed.callInProgressMillis());
        assertThrows(LeaseLostException.class, () -> timed.release(LEASE, 0));
        assertEquals(-1, timed.callInProgressMillis());
        assertEquals(OptionalLong.of(7), timed.clockSkewMillis());
    }

    /** Renewals hang until the test answers; acquisitions and releases fail. */
    private final class HangingSource implements LeaseSource {
        @Override
        public Lease acquire() {
            throw new LeaseStoreUnavailableException("down", 1_000, null);
        }

        @Override
        public Lease renew(Lease lease) {
            entered.countDown();
            try {
                if (!answer.await(10, TimeUnit.SECONDS)) {
                    throw new LeaseStoreUnavailableException("the test never answered", 1_000, null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return lease;
        }

        @Override
        public void release(Lease lease, long lastIssuedMillis) {
            throw new LeaseLostException("taken over");
        }

        @Override
        public OptionalLong clockSkewMillis() {
            return OptionalLong.of(7);
        }
    }
}
