package dev.snowid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real threads on the real clock: every ID unique, each thread's IDs strictly increasing. */
class SnowflakeGeneratorConcurrencyTest {

    private static final int TOTAL_IDS = 10_000_000;

    @ParameterizedTest(name = "{0} threads")
    @ValueSource(ints = {2, 4, 8})
    void tenMillionIdsAcrossThreadsAreUniqueAndIncreasingPerThread(int threads) throws Exception {
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(Slot.of(3, 5)).window(LeaseWindow.UNBOUNDED).build();
        int perThread = TOTAL_IDS / threads;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean batches = t % 2 == 1; // half the threads take batches, so single and batch paths race
                results.add(pool.submit(() -> {
                    long[] ids = new long[perThread];
                    start.await(1, TimeUnit.MINUTES);
                    int filled = 0;
                    while (filled < perThread) {
                        if (batches) {
                            long[] batch = generator.nextIds(Math.min(perThread - filled, 1 + filled % 700));
                            System.arraycopy(batch, 0, ids, filled, batch.length);
                            filled += batch.length;
                        } else {
                            ids[filled++] = generator.nextId();
                        }
                    }
                    return ids;
                }));
            }
            long[] all = new long[perThread * threads];
            int offset = 0;
            for (Future<long[]> result : results) {
                long[] ids = result.get(2, TimeUnit.MINUTES); // fails (TimeoutException) rather than hangs
                for (int i = 1; i < ids.length; i++) {
                    assertTrue(ids[i] > ids[i - 1], "a thread saw an ID not above its previous one at " + i);
                }
                System.arraycopy(ids, 0, all, offset, ids.length);
                offset += ids.length;
            }
            Arrays.sort(all);
            for (int i = 1; i < all.length; i++) {
                if (all[i] == all[i - 1]) {
                    throw new AssertionError("duplicate ID " + all[i]);
                }
            }
            SnowflakeId last = SnowflakeCodec.TWITTER.decode(all[all.length - 1]);
            assertEquals(Slot.of(3, 5), last.slot());
        } finally {
            pool.shutdownNow();
        }
    }
}
