package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DynamoDB round trips per acquisition through the pool, at the pool's occupancy, counted on
 * the wire (SDK attempts). docs/protocol.md ("Slot choice, renewal, snapshots") promises few at any occupancy: one
 * probe while the pool is mostly free, at most a probe, a Scan and a few writes when it is
 * nearly full. The numbers are printed for the record; the bounds are the protocol's.
 */
@OnEveryEngine
class LeaseRoundTripsTest {

    private static final SlotPool POOL = SlotPool.of(0, 3, 0, 31);
    private static final int ACQUISITIONS = 100;

    @ParameterizedTest(name = "{0}% of the pool held")
    @CsvSource({"0, 1.05", "50, 2.4", "90, 3.0", "99, 3.1"})
    void roundTripsPerAcquisitionStayFewAtAnyOccupancy(int occupancyPercent, double bound, TestTable table) {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore others = TestStores.store(table, WallClock.SYSTEM);
                DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                        .client(TestStores.clientSettings(table).interceptor(calls)).build()) {
            List<Slot> slots = new ArrayList<>(POOL.slots());
            Collections.shuffle(slots, new Random(occupancyPercent));
            long now = System.currentTimeMillis();
            int held = POOL.size() * occupancyPercent / 100;
            for (Slot slot : slots.subList(0, held)) {
                others.tryAcquire(slot, "someone-else", "other", now, now + 3_600_000).orElseThrow();
            }
            PooledLeaseSource source = new PooledLeaseSource(store, POOL, LeaseTerms.DEFAULT, WallClock.SYSTEM, "round-trips");
            source.release(source.acquire(), 0); // the first acquisition learns the store's clock (not counted)
            calls.clear();

            for (int i = 0; i < ACQUISITIONS; i++) {
                Lease lease = source.acquire();
                int beforeRelease = calls.attempts();
                source.release(lease, 0);
                assertTrue(calls.attempts() == beforeRelease + 1, "a release is one round trip");
            }
            double perAcquisition = (calls.attempts() - ACQUISITIONS) / (double) ACQUISITIONS;
            System.out.printf("[snowid] occupancy %2d%% (%3d of %d held): %.2f round trips per acquisition; calls %s%n",
                    occupancyPercent, held, POOL.size(), perAcquisition, calls.counts());
            assertTrue(perAcquisition <= bound, perAcquisition + " round trips per acquisition at " + occupancyPercent + "%");
        }
    }
}
