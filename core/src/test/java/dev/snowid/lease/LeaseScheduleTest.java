package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The renewal and back-off schedule on a manual clock: every timer, and what resets it. */
class LeaseScheduleTest {

    private static final long T = 1_700_000_000_000L;
    private static final LeaseTerms TERMS = LeaseTerms.of(60_000, 2_000); // a quarter lease: 15 s

    private final AtomicLong clock = new AtomicLong(T);
    private final LeaseSchedule schedule = new LeaseSchedule(TERMS, clock::get);

    @Test
    void beforeAnyLeaseEverythingIsAllowed() {
        assertTrue(schedule.renewalAllowed(T));
        assertFalse(schedule.backingOff(T));
        assertNull(schedule.failure());
        assertEquals(LeaseSchedule.NO_WINDOW_RETRY_MILLIS, schedule.noWindowRetryAfterMillis(T));
    }

    @Test
    void renewalsAreBoundToOnePerQuarterLeaseUnlessTheClockSteppedBack() {
        schedule.granted();
        assertFalse(schedule.renewalIntervalPassed(T + 14_999));
        assertTrue(schedule.renewalIntervalPassed(T + 15_000));
        assertTrue(schedule.renewalIntervalPassed(T - 1), "a clock stepped back past the last confirmation");
        assertEquals(5_000, schedule.renewalIntervalLeftMillis(T + 10_000));

        schedule.renewed(T + 20_000); // the time the renewal was asked for counts, not its answer
        assertFalse(schedule.renewalAllowed(T + 34_999));
        assertTrue(schedule.renewalAllowed(T + 35_000));
        assertEquals(1_000, schedule.sinceConfirmedMillis(T + 21_000));
    }

    @Test
    void aFailedRenewalOfAWindowInForceWaitsAtMostASecond() {
        clock.set(T + 30_000);
        schedule.renewalFailed(new LeaseStoreUnavailableException("down", 30_000, null));
        assertFalse(schedule.renewalAllowed(T + 30_999));
        assertTrue(schedule.renewalAllowed(T + 31_000));
        assertFalse(schedule.backingOff(T + 30_000), "a window in force is renewed again, not backed off from");

        clock.set(T + 40_000);
        schedule.renewalFailed(new LeaseStoreUnavailableException("throttled", 200, null));
        assertTrue(schedule.renewalAllowed(T + 40_200), "a shorter Retry-After is honoured");

        clock.set(T + 50_000);
        schedule.inlineRenewalFailed();
        assertFalse(schedule.renewalAllowed(T + 50_999));
        assertTrue(schedule.renewalAllowed(T + 51_000));
    }

    @Test
    void aFailureBacksOffForItsRetryAfterBoundedByAMinuteAndALossDoesNot() {
        LeaseStoreUnavailableException down = new LeaseStoreUnavailableException("down", 5_000, null);
        schedule.backOff(down);
        assertTrue(schedule.backingOff(T + 4_999));
        assertFalse(schedule.backingOff(T + 5_000));
        assertEquals(3_000, schedule.backOffLeftMillis(T + 2_000));

        schedule.backOff(new NoFreeSlotException("full", 3_600_000));
        assertTrue(schedule.backingOff(T + 59_999));
        assertFalse(schedule.backingOff(T + LeaseSchedule.MAX_BACKOFF_MILLIS), "a source asking for an hour is asked again after a minute");

        clock.set(T + 100_000);
        schedule.backOff(new LeaseLostException("taken over"));
        assertFalse(schedule.backingOff(T + 100_000), "a loss leases anew at once");
        assertEquals(1, LeaseSchedule.retryAfter(new NoFreeSlotException("now", 0)), "at least 1 ms");
        assertEquals(LeaseSchedule.RETRY_MILLIS, LeaseSchedule.retryAfter(new IllegalStateException("a bug")));
    }

    @Test
    void failuresAreRememberedForMessagesUntilASuccess() {
        LeaseStoreUnavailableException down = new LeaseStoreUnavailableException("down", 2_000, null);
        schedule.failed(down);
        schedule.failed(new LeaseLostException("not a failure of the source"));
        assertSame(down, schedule.failure());
        clock.addAndGet(700);
        assertEquals(700, schedule.sinceFailureMillis(clock.get()));

        schedule.givenBack(new ClockSkewException("skewed", 5_000)); // Retry-After 10 s
        assertTrue(schedule.failure() instanceof ClockSkewException);
        assertEquals(10_000, schedule.noWindowRetryAfterMillis(clock.get()));

        schedule.granted();
        assertNull(schedule.failure());
        schedule.renewed(clock.get());
        assertFalse(schedule.backingOff(clock.get()));
    }

    @Test
    void forgetStartsOverAsAfterARestore() {
        schedule.granted();
        schedule.backOff(new LeaseStoreUnavailableException("down", 5_000, null));
        schedule.inlineRenewalFailed();
        schedule.forget();
        assertTrue(schedule.renewalAllowed(T));
        assertFalse(schedule.backingOff(T));
        assertNull(schedule.failure());
    }

    /** Found by the simulator (testing/simulator): the back-off outlived the clock's fix by as long as the clock had been ahead. */
    @Test
    void aClockSteppedBackByNtpEndsTheBackOffItWasGivenBackFor() {
        clock.set(T + 3_600_000); // an hour ahead
        schedule.givenBack(new ClockSkewException("an hour ahead", 3_600_000));
        assertTrue(schedule.backingOff(T + 3_600_000));
        clock.set(T + 5_000); // NTP steps it back
        assertFalse(schedule.backingOff(T + 5_000), "the back-off was set an hour ahead of this clock; it must not last that hour");
        assertEquals(0, schedule.backOffLeftMillis(T + 5_000));

        schedule.backOff(new LeaseStoreUnavailableException("down", 30_000, null));
        assertTrue(schedule.backingOff(T + 34_999), "a back-off set after the step lasts its Retry-After");
        assertFalse(schedule.backingOff(T + 35_000));
    }
}
