package dev.snowid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Encode and decode are inverse: over every combination of field boundaries, and over a large
 * seeded random sample (the seed is printed in failures, so a failure can be replayed).
 */
class SnowflakeCodecRoundTripTest {

    private static final long SEED = 0x5EED_1D5L;
    private final SnowflakeCodec codec = SnowflakeCodec.TWITTER;

    @Test
    void everyCombinationOfFieldBoundariesRoundTrips() {
        long epoch = codec.epochMillis();
        long[] times = {epoch, epoch + 1, 1700000000000L, codec.horizonMillis() - 1, codec.horizonMillis()};
        int[] nodes = {0, 1, 15, 16, 30, 31};
        int[] sequences = {0, 1, 2047, 2048, 4094, 4095};
        int checked = 0;
        for (long time : times) {
            for (int datacenter : nodes) {
                for (int machine : nodes) {
                    for (int sequence : sequences) {
                        assertRoundTrip(time, datacenter, machine, sequence);
                        checked++;
                    }
                }
            }
        }
        assertEquals(times.length * nodes.length * nodes.length * sequences.length, checked);
    }

    @Test
    void randomFieldsRoundTrip() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 1_000_000; i++) {
            assertRoundTrip(random.nextLong(codec.epochMillis(), codec.horizonMillis() + 1),
                    random.nextInt(32), random.nextInt(32), random.nextInt(4096));
        }
    }

    @Test
    void randomNonNegativeLongsRoundTripThroughTextAndFields() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 1_000_000; i++) {
            long value = random.nextLong() >>> 1;
            SnowflakeId id = codec.parse(Long.toString(value));
            assertEquals(value, id.value(), "seed " + SEED);
            assertEquals(value, codec.encode(id.unixMillis(), id.datacenter(), id.machine(), id.sequence()), "seed " + SEED);
        }
    }

    @Test
    void idsOrderByTimeThenNodeThenSequence() {
        SplittableRandom random = new SplittableRandom(SEED);
        for (int i = 0; i < 100_000; i++) {
            long time = random.nextLong(codec.epochMillis(), codec.horizonMillis());
            long latestOfThisMillis = codec.encode(time, 31, 31, 4095);
            long any = codec.encode(time, random.nextInt(32), random.nextInt(32), random.nextInt(4096));
            long earliestOfNextMillis = codec.encode(time + 1, 0, 0, 0);
            assertTrue(any <= latestOfThisMillis && latestOfThisMillis < earliestOfNextMillis, "seed " + SEED);
        }
    }

    private void assertRoundTrip(long unixMillis, int datacenter, int machine, int sequence) {
        SnowflakeId id = codec.decode(codec.encode(unixMillis, datacenter, machine, sequence));
        String fields = unixMillis + "/" + datacenter + "/" + machine + "/" + sequence + " (seed " + SEED + ")";
        assertEquals(unixMillis, id.unixMillis(), fields);
        assertEquals(datacenter, id.datacenter(), fields);
        assertEquals(machine, id.machine(), fields);
        assertEquals(sequence, id.sequence(), fields);
    }
}
