package dev.snowid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class LeaseWindowTest {

    private final LeaseWindow window = LeaseWindow.of(1_000, 2_000);

    @Test
    void releaseEndsTheWindowJustAfterTheLastIssuedMs() {
        assertEquals(1_501, window.expiryOnRelease(1_500));
    }

    @Test
    void releaseNeverMovesTheExpiryBelowTheFloorNorPastTheExpiry() {
        assertEquals(1_000, window.expiryOnRelease(0));
        assertEquals(1_000, window.expiryOnRelease(500));
        assertEquals(2_000, window.expiryOnRelease(5_000));
    }

    @Test
    void nothingIssuedReleasesAtTheFloorEvenWhenTheFloorIsZero() {
        assertEquals(0, LeaseWindow.of(0, 2_000).expiryOnRelease(0));
        assertEquals(2, LeaseWindow.of(0, 2_000).expiryOnRelease(1));
    }

    @Test
    void aNegativeLastIssuedMsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> window.expiryOnRelease(-1));
    }

    @Test
    void theLargestLastIssuedMsDoesNotWrapBelowTheFloor() {
        // Long.MAX_VALUE + 1 wraps to Long.MIN_VALUE: unclamped, the expiry fell back to the floor
        // and the next holder could issue in the range this one used.
        assertEquals(2_000, window.expiryOnRelease(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, LeaseWindow.UNBOUNDED.expiryOnRelease(Long.MAX_VALUE));
    }
}
