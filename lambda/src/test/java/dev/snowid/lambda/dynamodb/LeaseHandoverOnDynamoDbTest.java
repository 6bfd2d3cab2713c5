package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three processes share a one-slot pool through the real store, each with its own SDK client
 * and its own clock: skewed by up to ±1.5 s, and sometimes frozen (it stops acting while time
 * goes on, then thaws with its wall clock jumped, as a Lambda environment does). Over a seeded
 * random schedule of issuing, time passing, freezing and releasing, the slot changes hands
 * again and again, and no ID is ever issued twice.
 */
@OnEveryEngine
class LeaseHandoverOnDynamoDbTest {

    private static final int PROCESSES = 3;
    private static final int STEPS = 60;
    private static final LeaseTerms TERMS = LeaseTerms.of(5_000, 250);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;

    private static final class Process {
        final AtomicLong clockOffset = new AtomicLong();
        final long skew;
        final DynamoDbLeaseStore store;
        final LeasedGenerator generator;
        boolean frozen;

        Process(TestTable table, long skew, AtomicLong simulated) {
            this.skew = skew;
            WallClock clock = () -> System.currentTimeMillis() + clockOffset.get();
            // The store compares its Date header with the machine's real clock: the simulated time and
            // skews are this test's way of playing clocks that disagree, which the skew check would
            // rightly refuse; here the protocol's own guarantees are under test.
            this.store = DynamoDbLeaseStore.builder().table(table.name()).clock(WallClock.SYSTEM).client(TestStores.clientSettings(table)).build();
            this.generator = new LeasedGenerator(new PooledLeaseSource(store, SlotPool.of(5, 5, 9, 9), TERMS, clock, "p"),
                    TERMS, clock, CODEC);
            follow(simulated);
        }

        void follow(AtomicLong simulated) {
            clockOffset.set(simulated.get() + skew);
        }
    }

    @ParameterizedTest(name = "schedule {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void noIdIsIssuedTwiceWhateverTheClocksAndFreezes(long seed, TestTable table) {
        Random random = new Random(seed);
        AtomicLong simulated = new AtomicLong();
        List<Process> processes = new ArrayList<>();
        for (int i = 0; i < PROCESSES; i++) {
            processes.add(new Process(table, random.nextInt(3_001) - 1_500, simulated));
        }
        Set<Long> ids = new HashSet<>();
        Map<Integer, Integer> issuedBy = new HashMap<>();
        int refusals = 0;
        try {
            for (int step = 0; step < STEPS; step++) {
                int who = random.nextInt(PROCESSES);
                Process process = processes.get(who);
                int action = random.nextInt(10);
                if (action < 5 && !process.frozen) {
                    try {
                        for (long id : process.generator.nextIds(1 + random.nextInt(50))) {
                            assertTrue(ids.add(id), "ID " + id + " issued twice (" + CODEC.decode(id) + "), schedule " + seed + " step " + step);
                            issuedBy.merge(who, 1, Integer::sum);
                        }
                    } catch (IdUnavailableException | LeaseLostException refused) {
                        refusals++; // slot held by another, clock behind its floor, lease lost: nothing issued
                    }
                } else if (action < 8) {
                    // Time passes for everyone; a frozen process's clock is not read until it thaws.
                    simulated.addAndGet(random.nextInt(4_000));
                    for (Process each : processes) {
                        if (!each.frozen) {
                            each.follow(simulated);
                        }
                    }
                } else if (action < 9) {
                    process.frozen = !process.frozen;
                    if (!process.frozen) {
                        process.follow(simulated); // thawed: the wall clock jumped
                    }
                } else if (!process.frozen) {
                    try {
                        process.generator.release();
                    } catch (LeaseLostException | IdUnavailableException alreadyGone) {
                        refusals++;
                    }
                }
            }
        } finally {
            processes.forEach(p -> p.store.close());
        }
        assertTrue(issuedBy.size() >= 2, "the slot changed hands: IDs by process " + issuedBy + ", refusals " + refusals);
        assertEquals(ids.size(), issuedBy.values().stream().mapToInt(Integer::intValue).sum());
    }
}
