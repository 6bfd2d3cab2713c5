package dev.snowid.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hand-made formatter against java.time, over leap years, month ends and random instants. */
class LogTimestampTest {

    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(java.time.ZoneOffset.UTC);

    @Test
    void formatsAsIso8601WithMillisecondsInUtc() {
        assertEquals("1970-01-01T00:00:00.000Z", LogTimestamp.format(0));
        assertEquals("2010-11-04T01:42:54.657Z", LogTimestamp.format(1288834974657L));
        assertEquals("2024-02-29T23:59:59.999Z", LogTimestamp.format(Instant.parse("2024-02-29T23:59:59.999Z").toEpochMilli()));
        assertEquals("2000-03-01T00:00:00.001Z", LogTimestamp.format(Instant.parse("2000-03-01T00:00:00.001Z").toEpochMilli()));
    }

    @Test
    void agreesWithJavaTimeEverywhere() {
        long day = 86_400_000L;
        for (long millis = -3 * day; millis < Instant.parse("2200-01-01T00:00:00Z").toEpochMilli(); millis += day - 1) {
            assertEquals(ISO.format(Instant.ofEpochMilli(millis)), LogTimestamp.format(millis));
        }
        SplittableRandom random = new SplittableRandom(42);
        long end = Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli();
        for (int i = 0; i < 100_000; i++) {
            long millis = random.nextLong(0, end);
            assertEquals(ISO.format(Instant.ofEpochMilli(millis).truncatedTo(ChronoUnit.MILLIS)), LogTimestamp.format(millis));
        }
    }
}
