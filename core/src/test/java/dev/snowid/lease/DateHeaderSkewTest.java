package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

class DateHeaderSkewTest {

    /** 2023-11-14T22:13:20Z, a whole second. */
    private static final long SECOND = 1_700_000_000_000L;
    private static final String HEADER = "Tue, 14 Nov 2023 22:13:20 GMT";

    @Test
    void comparesTheMiddleOfTheRoundTripWithTheMiddleOfTheHeadersSecond() {
        assertEquals(0, DateHeaderSkew.measure(SECOND + 400, SECOND + 600, HEADER).getAsLong());
        assertEquals(2_000, DateHeaderSkew.measure(SECOND + 2_400, SECOND + 2_600, HEADER).getAsLong(), "ahead");
        assertEquals(-1_500, DateHeaderSkew.measure(SECOND - 1_000, SECOND - 1_000, HEADER).getAsLong(), "behind");
        assertEquals(0, DateHeaderSkew.measure(SECOND + 400, SECOND + 600, " " + HEADER + " ").getAsLong(), "spaces around");
    }

    @Test
    void anAbsentOrUnreadableHeaderMeasuresNothing() {
        assertFalse(DateHeaderSkew.measure(SECOND, SECOND, null).isPresent());
        assertFalse(DateHeaderSkew.measure(SECOND, SECOND, "").isPresent());
        assertFalse(DateHeaderSkew.measure(SECOND, SECOND, "yesterday").isPresent());
        assertFalse(DateHeaderSkew.measure(SECOND, SECOND, "2023-11-14T22:13:20Z").isPresent(), "ISO 8601 is not a Date header");
    }
}
