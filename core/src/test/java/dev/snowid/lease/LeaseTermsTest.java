package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeaseTermsTest {

    @Test
    void defaultsAreAMinuteAndTwoSeconds() {
        assertEquals(60_000, LeaseTerms.DEFAULT.leaseMillis());
        assertEquals(2_000, LeaseTerms.DEFAULT.maxClockSkewMillis());
    }

    @Test
    void boundsAreAllowed() {
        assertEquals(5_000, LeaseTerms.of(5_000, 0).leaseMillis());
        assertEquals(3_600_000, LeaseTerms.of(3_600_000, 60_000).leaseMillis());
        assertEquals(60_000, LeaseTerms.of(3_600_000, 60_000).maxClockSkewMillis());
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 0, 4_999, 3_600_001, Long.MAX_VALUE})
    void leaseDurationOutOfRangeNamesTheSetting(long leaseMillis) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> LeaseTerms.of(leaseMillis, 2_000));
        assertEquals("leaseMillis " + leaseMillis + " is out of range: allowed 5000 to 3600000 (ms)", error.getMessage());
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 60_001, Long.MIN_VALUE})
    void skewBoundOutOfRangeNamesTheSetting(long skew) {
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> LeaseTerms.of(60_000, skew));
        assertEquals("maxClockSkewMillis " + skew + " is out of range: allowed 0 to 60000 (ms)", error.getMessage());
    }

    @Test
    void renewalIsDueOnceLessThanHalfIsLeft() {
        LeaseTerms terms = LeaseTerms.of(10_000, 1_000);
        LeaseWindow window = LeaseWindow.of(0, 1_000_010_000L);
        assertFalse(terms.needsRenewal(window, 1_000_000_000L));
        assertFalse(terms.needsRenewal(window, 1_000_005_000L), "exactly half left");
        assertTrue(terms.needsRenewal(window, 1_000_005_001L));
        assertTrue(terms.needsRenewal(window, 1_000_010_000L), "nothing left");
        assertTrue(terms.needsRenewal(window, 2_000_000_000L), "long run out");
        assertFalse(terms.needsRenewal(LeaseWindow.UNBOUNDED, 2_000_000_000L), "a fixed node never renews");
    }

    @Test
    void aLeaseMustLastFourTimesTheToleratedSkew() {
        assertEquals(12_000, LeaseTerms.of(12_000, 2_000).leaseMillis(), "4 x (2000 + 1000)");
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> LeaseTerms.of(11_999, 2_000));
        assertTrue(error.getMessage().startsWith("leaseMillis 11999 is too short for maxClockSkewMillis 2000: a lease must last at least"
                + " 4 x the tolerated skew (2000 + 1000 ms for the Date header's whole seconds = 3000 ms), i.e. at least 12000 ms"),
                error.getMessage());
        assertTrue(error.getMessage().endsWith("lower maxClockSkewMillis to at most 1999 ms"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LeaseTerms.of(5_000, 2_000), "5 s leases with 2 s skew: two tolerated"
                + " clocks 4.4 s apart would take a slot 0.6 s after it was granted");
        assertEquals(5_000, LeaseTerms.of(5_000, 250).leaseMillis());
        assertThrows(IllegalArgumentException.class, () -> LeaseTerms.of(5_000, 251));
    }

    @Test
    void theLargestSkewALeaseAllowsIsAQuarterOfItLessTheDateHeadersSecond() {
        assertEquals(250, LeaseTerms.largestMaxClockSkewFor(5_000));
        assertEquals(14_000, LeaseTerms.largestMaxClockSkewFor(60_000));
        assertEquals(0, LeaseTerms.largestMaxClockSkewFor(1_000));
        LeaseTerms.of(60_000, LeaseTerms.largestMaxClockSkewFor(60_000)); // and it is accepted
    }

    @Test
    void renewalsAreAtMostOnePerQuarterLease() {
        assertEquals(15_000, LeaseTerms.of(60_000, 2_000).minRenewalIntervalMillis());
    }

    @Test
    void theMeasuredSkewMayBeOffByTheDateHeadersSecond() {
        LeaseTerms terms = LeaseTerms.of(60_000, 2_000);
        assertEquals(3_000, terms.toleratedSkewMillis());
        assertTrue(terms.toleratesSkew(3_000));
        assertTrue(terms.toleratesSkew(-3_000));
        assertFalse(terms.toleratesSkew(3_001));
        assertFalse(terms.toleratesSkew(-3_001));
        assertFalse(terms.toleratesSkew(Long.MIN_VALUE), "no overflow of abs()");
    }
}
