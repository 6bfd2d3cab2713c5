package dev.snowid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SnowflakeCodecTest {

    private final SnowflakeCodec codec = SnowflakeCodec.TWITTER;

    @Test
    void aConfiguredEpochMustNotBeInTheFuture() {
        long now = 1_700_000_000_000L;
        assertEquals(now, SnowflakeCodec.withPastEpoch(now, now).epochMillis(), "now itself is allowed");
        assertEquals(SnowflakeCodec.TWITTER, SnowflakeCodec.withPastEpoch(SnowflakeCodec.TWITTER_EPOCH_MILLIS, now));
        IllegalArgumentException future = assertThrows(IllegalArgumentException.class, () -> SnowflakeCodec.withPastEpoch(now + 1, now));
        assertEquals("epoch 1700000000001 is in the future (now is 1700000000000): no ID could be issued", future.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SnowflakeCodec.withPastEpoch(-1, now), "still withEpoch's range");
    }

    @Test
    void aBatchIsOneToOneMillisecondsWorth() {
        assertTrue(SnowflakeCodec.isBatchCount(1) && SnowflakeCodec.isBatchCount(4_096));
        assertTrue(!SnowflakeCodec.isBatchCount(0) && !SnowflakeCodec.isBatchCount(4_097) && !SnowflakeCodec.isBatchCount(-1));
        assertEquals(4_096, SnowflakeCodec.checkBatchCount(4_096));
        assertEquals("count 4097 is out of range: allowed 1 to 4096",
                assertThrows(IllegalArgumentException.class, () -> SnowflakeCodec.checkBatchCount(4_097)).getMessage());
    }

    @Test
    void specWorkedExampleEncodes() {
        assertEquals(1724551110457221119L, codec.encode(1700000000000L, 7, 13, 4095));
    }

    @Test
    void specWorkedExampleDecodes() {
        SnowflakeId id = codec.decode(1724551110457221119L);
        assertEquals(1700000000000L, id.unixMillis());
        assertEquals(411165025343L, id.unixMillis() - SnowflakeCodec.TWITTER_EPOCH_MILLIS);
        assertEquals(7, id.datacenter());
        assertEquals(13, id.machine());
        assertEquals(4095, id.sequence());
        assertEquals(Instant.parse("2023-11-14T22:13:20Z"), id.instant());
    }

    @Test
    void epochIsTwitters() {
        assertEquals(Instant.parse("2010-11-04T01:42:54.657Z"), Instant.ofEpochMilli(codec.epochMillis()));
        assertEquals(0L, codec.encode(codec.epochMillis(), 0, 0, 0));
    }

    @Test
    void largestEncodableIdIsLongMaxValue() {
        assertEquals(Long.MAX_VALUE, codec.encode(codec.horizonMillis(), 31, 31, 4095));
        assertTrue(Instant.ofEpochMilli(codec.horizonMillis()).toString().startsWith("2080-"));
    }

    @Test
    void timestampBeforeEpochIsRejectedNamingFieldAndRange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> codec.encode(codec.epochMillis() - 1, 0, 0, 0));
        assertTrue(e.getMessage().startsWith("timestamp 1288834974656 is out of range: allowed 1288834974657"), e.getMessage());
    }

    @Test
    void timestampPastHorizonIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> codec.encode(codec.horizonMillis() + 1, 0, 0, 0));
        assertTrue(e.getMessage().contains("41-bit horizon"), e.getMessage());
    }

    @Test
    void fieldsOutOfRangeAreRejectedNamingTheField() {
        assertMessage("datacenter 32 is out of range: allowed 0 to 31", () -> codec.encode(1700000000000L, 32, 0, 0));
        assertMessage("datacenter -1 is out of range: allowed 0 to 31", () -> codec.encode(1700000000000L, -1, 0, 0));
        assertMessage("machine 32 is out of range: allowed 0 to 31", () -> codec.encode(1700000000000L, 0, 32, 0));
        assertMessage("machine -1 is out of range: allowed 0 to 31", () -> codec.encode(1700000000000L, 0, -1, 0));
        assertMessage("sequence 4096 is out of range: allowed 0 to 4095", () -> codec.encode(1700000000000L, 0, 0, 4096));
        assertMessage("sequence -1 is out of range: allowed 0 to 4095", () -> codec.encode(1700000000000L, 0, 0, -1));
    }

    @Test
    void negativeIdsAreRejected() {
        InvalidIdException e = assertThrows(InvalidIdException.class, () -> codec.decode(-1));
        assertEquals("ID -1 is negative: a Snowflake ID is from 0 to 9223372036854775807", e.getMessage());
    }

    @Test
    void parsesDecimalText() {
        assertEquals(1724551110457221119L, codec.parse("1724551110457221119").value());
        assertEquals(Long.MAX_VALUE, codec.parse("9223372036854775807").value());
        assertEquals(0L, codec.parse("0").value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "+1", " 1", "1 ", "1.0", "1e3", "0x1F", "abc", "１２", "9223372036854775808",
            "99999999999999999999", "12345678901234567890123456789012345678901234567890123456789012345"})
    void rejectsTextThatIsNotADecimal63BitInteger(String text) {
        InvalidIdException e = assertThrows(InvalidIdException.class, () -> codec.parse(text));
        assertTrue(e.getMessage().contains("decimal digits only"), e.getMessage());
    }

    @Test
    void parseSaysWhichCharacterIsWrong() {
        assertMessage("'12a4' is not an ID: character 3 is 'a'; a Snowflake ID is written as decimal digits only, from 0 to 9223372036854775807",
                () -> codec.parse("12a4"));
    }

    @Test
    void customEpochShiftsTimestampsButNotFields() {
        long epoch = 1577836800000L; // 2020-01-01
        SnowflakeCodec custom = SnowflakeCodec.withEpoch(epoch);
        long id = custom.encode(1700000000000L, 7, 13, 4095);
        assertEquals((1700000000000L - epoch) << 22 | 7L << 17 | 13L << 12 | 4095, id);
        assertEquals(1700000000000L, custom.decode(id).unixMillis());
        assertThrows(IllegalArgumentException.class, () -> custom.encode(epoch - 1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> SnowflakeCodec.withEpoch(-1));
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(expected, e.getMessage());
    }
}
