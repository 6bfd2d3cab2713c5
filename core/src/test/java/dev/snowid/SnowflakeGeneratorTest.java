package dev.snowid;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SnowflakeGeneratorTest {

    private static final long T = 1700000000000L;
    private static final Slot SLOT = Slot.of(7, 13);
    private final SnowflakeCodec codec = SnowflakeCodec.TWITTER;

    private static SnowflakeGenerator.Builder generator(WallClock clock) {
        return SnowflakeGenerator.forSlot(SLOT).window(LeaseWindow.UNBOUNDED).clock(clock);
    }

    @Test
    void idsCarryClockSlotAndASequenceFromZero() {
        SnowflakeGenerator generator = generator(() -> T).build();
        for (int sequence = 0; sequence < 10; sequence++) {
            SnowflakeId id = codec.decode(generator.nextId());
            assertEquals(T, id.unixMillis());
            assertEquals(SLOT, id.slot());
            assertEquals(sequence, id.sequence());
        }
    }

    @Test
    void sequenceRestartsAtZeroInANewMillisecond() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = generator(clock::get).build();
        generator.nextId();
        generator.nextId();
        clock.addAndGet(1);
        SnowflakeId id = codec.decode(generator.nextId());
        assertEquals(T + 1, id.unixMillis());
        assertEquals(0, id.sequence());
    }

    @Test
    void exhaustedMillisecondWaitsForTheNextOneAndNeverReusesASequence() {
        long[] readings = new long[4096 + 3];
        Arrays.fill(readings, T);
        readings[readings.length - 1] = T + 1; // the clock moves on only after the 4,097th request started waiting
        ScriptedClock clock = new ScriptedClock(readings);
        SnowflakeGenerator generator = generator(clock).build();
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < 4096; i++) {
            assertTrue(ids.add(generator.nextId()));
        }
        SnowflakeId next = codec.decode(generator.nextId());
        assertEquals(T + 1, next.unixMillis());
        assertEquals(0, next.sequence());
        assertFalse(ids.contains(next.value()));
    }

    @Test
    void smallStepBackIsWaitedOutThenTheSequenceContinues() {
        // issue at T, then the clock reads T-3 (within the default 5 ms), T-2, T-1, then T again
        ScriptedClock clock = new ScriptedClock(T, T - 3, T - 3, T - 2, T - 1, T);
        SnowflakeGenerator generator = generator(clock).build();
        long first = generator.nextId();
        long second = generator.nextId();
        assertTrue(second > first);
        SnowflakeId id = codec.decode(second);
        assertEquals(T, id.unixMillis());
        assertEquals(1, id.sequence());
    }

    @Test
    void largeStepBackIsRefusedWithItsSizeAndStateIsKept() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = generator(clock::get).toleratingBackwardMillis(5).build();
        long before = generator.nextId();
        clock.set(T - 100);
        ClockBehindException e = assertThrows(ClockBehindException.class, generator::nextId);
        assertEquals(100, e.behindMillis());
        assertTrue(e.getMessage().startsWith("clock is 100 ms behind the last issued ID"), e.getMessage());
        assertEquals(T, generator.lastIssuedMillis());

        clock.set(T); // caught up: the same millisecond continues where it left off
        SnowflakeId resumed = codec.decode(generator.nextId());
        assertEquals(T, resumed.unixMillis());
        assertEquals(1, resumed.sequence());
        assertTrue(resumed.value() > before);
    }

    @Test
    void toleranceZeroRefusesAnyStepBack() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = generator(clock::get).toleratingBackwardMillis(0).build();
        generator.nextId();
        clock.set(T - 1);
        assertEquals(1, assertThrows(ClockBehindException.class, generator::nextId).behindMillis());
    }

    @Test
    void clockGoingBackAndForthNeverRepeatsAnId() {
        long[] readings = new long[20_000];
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        long now = T;
        for (int i = 0; i < readings.length; i++) {
            now += random.nextInt(10) == 0 ? -random.nextInt(20) : random.nextInt(4); // drifts forward, with steps back
            readings[i] = now;
        }
        SnowflakeGenerator generator = generator(new ScriptedClock(readings)).toleratingBackwardMillis(0).build();
        Set<Long> ids = new HashSet<>();
        long last = -1;
        int refused = 0;
        for (int i = 0; i < readings.length; i++) {
            try {
                long id = generator.nextId();
                assertTrue(ids.add(id), "duplicate " + id);
                assertTrue(id > last, "not increasing");
                last = id;
            } catch (ClockBehindException expected) {
                refused++;
            }
        }
        assertTrue(refused > 0, "the script should step back beyond the tolerance at least once");
        assertTrue(ids.size() > readings.length / 4);
    }

    @Test
    void issuesOnlyInsideTheLeaseWindow() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(SLOT).clock(clock::get)
                .window(LeaseWindow.of(T + 1000, T + 2000)).build();

        ClockBehindException early = assertThrows(ClockBehindException.class, generator::nextId);
        assertEquals(1000, early.behindMillis());
        assertTrue(early.getMessage().contains("lease's floor"), early.getMessage());

        clock.set(T + 1000);
        assertEquals(T + 1000, codec.decode(generator.nextId()).unixMillis());
        clock.set(T + 1999);
        assertEquals(T + 1999, codec.decode(generator.nextId()).unixMillis());

        clock.set(T + 2000);
        LeaseExpiredException late = assertThrows(LeaseExpiredException.class, generator::nextId);
        assertTrue(late.getMessage().contains("lease expired at " + (T + 2000)), late.getMessage());
    }

    @Test
    void clockJustBehindTheFloorIsWaitedOut() {
        ScriptedClock clock = new ScriptedClock(T - 2, T - 2, T - 1, T);
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(SLOT).clock(clock).window(LeaseWindow.of(T, T + 1000)).build();
        assertEquals(T, codec.decode(generator.nextId()).unixMillis());
    }

    @Test
    void extendedLeaseIsUsedAndAShorterOneIgnored() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(SLOT).clock(clock::get).window(LeaseWindow.of(T, T + 10)).build();
        generator.extendLease(T + 20);
        generator.extendLease(T + 15);
        assertEquals(LeaseWindow.of(T, T + 20), generator.window());
        clock.set(T + 19);
        generator.nextId();
        clock.set(T + 20);
        assertThrows(LeaseExpiredException.class, generator::nextId);
    }

    @Test
    void closedGeneratorIssuesNothingAndReportsTheLastIssuedMillisecond() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = generator(clock::get).build();
        assertEquals(0, generator.lastIssuedMillis());
        generator.nextId();
        clock.addAndGet(5);
        generator.nextId();
        assertEquals(T + 5, generator.close());
        assertEquals(T + 5, generator.close());
        assertTrue(generator.isClosed());
        assertThrows(LeaseExpiredException.class, generator::nextId);
        assertThrows(LeaseExpiredException.class, () -> generator.nextIds(10));
    }

    @Test
    void closingBeforeIssuingReportsZero() {
        assertEquals(0, generator(() -> T).build().close());
    }

    @Test
    void batchReservesItsRangeInOneStepPerMillisecond() {
        ScriptedClock clock = new ScriptedClock(T);
        SnowflakeGenerator generator = generator(clock).build();
        long[] ids = generator.nextIds(4096);
        assertEquals(1, clock.reads(), "one reservation, one clock reading, for the whole batch");
        for (int i = 0; i < ids.length; i++) {
            SnowflakeId id = codec.decode(ids[i]);
            assertEquals(T, id.unixMillis());
            assertEquals(i, id.sequence());
        }
    }

    @Test
    void batchSpillsIntoTheNextMillisecondWhenThisOneRunsOut() {
        ScriptedClock clock = new ScriptedClock(T, T, T, T + 1);
        SnowflakeGenerator generator = generator(clock).build();
        long[] first = generator.nextIds(10);
        long[] batch = generator.nextIds(4096);
        assertEquals(4096, batch.length);
        for (int i = 1; i < batch.length; i++) {
            assertTrue(batch[i] > batch[i - 1]);
        }
        assertTrue(batch[0] > first[9]);
        assertEquals(T, codec.decode(batch[4085]).unixMillis());
        assertEquals(4095, codec.decode(batch[4085]).sequence());
        assertEquals(T + 1, codec.decode(batch[4086]).unixMillis());
        assertEquals(0, codec.decode(batch[4086]).sequence());
        assertEquals(T + 1, codec.decode(batch[4095]).unixMillis());
    }

    @Test
    void batchCountOutsideOneTo4096IsRejected() {
        SnowflakeGenerator generator = generator(() -> T).build();
        assertEquals("count 0 is out of range: allowed 1 to 4096",
                assertThrows(IllegalArgumentException.class, () -> generator.nextIds(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> generator.nextIds(4097));
    }

    @Test
    void batchAndSingleIdsInterleaveWithoutOverlap() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = generator(clock::get).build();
        long a = generator.nextId();
        long[] b = generator.nextIds(100);
        long c = generator.nextId();
        assertEquals(a + 1, b[0]);
        assertEquals(b[99] + 1, c);
    }

    @Test
    void randomFirstSequenceStaysBelowItsBoundAndVaries() {
        AtomicLong clock = new AtomicLong(T);
        SnowflakeGenerator generator = generator(clock::get).randomFirstSequence(1024).build();
        Set<Integer> firsts = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            clock.addAndGet(1);
            int sequence = codec.decode(generator.nextId()).sequence();
            assertTrue(sequence < 1024);
            firsts.add(sequence);
            assertEquals(sequence + 1, codec.decode(generator.nextId()).sequence());
        }
        assertTrue(firsts.size() > 50, "first sequences should vary: " + firsts.size());
    }

    @Test
    void builderRejectsBadSettingsNamingThem() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.forSlot(SLOT).toleratingBackwardMillis(-1)).getMessage().startsWith("tolerated backward step -1 ms"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> SnowflakeGenerator.forSlot(SLOT).randomFirstSequence(0)).getMessage().startsWith("random first sequence bound 0"));
        assertTrue(assertThrows(IllegalStateException.class,
                () -> SnowflakeGenerator.forSlot(SLOT).build()).getMessage().contains("lease window"));
    }

    @Test
    void clockOutsideTheFormatsRangeIsRefused() {
        SnowflakeGenerator generator = generator(() -> SnowflakeCodec.TWITTER_EPOCH_MILLIS - 10_000).build();
        IdUnavailableException e = assertThrows(IdUnavailableException.class, generator::nextId);
        assertTrue(e.getMessage().contains("outside what the format can encode"), e.getMessage());
    }

    @Test
    void idsFromTheSystemClockAreUniqueAndIncreasing() {
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(SLOT).window(LeaseWindow.UNBOUNDED).build();
        long[] ids = new long[200_000];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = generator.nextId();
        }
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        assertArrayEquals(sorted, ids, "IDs must come out strictly increasing");
        for (int i = 1; i < ids.length; i++) {
            assertTrue(ids[i] > ids[i - 1]);
        }
    }
}
