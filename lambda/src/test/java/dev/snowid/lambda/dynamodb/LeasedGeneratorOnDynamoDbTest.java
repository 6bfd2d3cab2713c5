package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The generator on the real store: it fails closed while the store is down and its window has ended, and recovers. */
@OnEveryEngine
class LeasedGeneratorOnDynamoDbTest {

    private static final LeaseTerms TERMS = LeaseTerms.of(5_000, 250);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;

    @Test
    void failsClosedWhileTheStoreIsDownPastTheWindowAndRecoversWhenItIsBack(TestTable table) {
        AtomicLong offset = new AtomicLong();
        WallClock clock = () -> System.currentTimeMillis() + offset.get();
        try (FaultyProxy proxy = FaultyProxy.inFrontOf(table.endpoint());
                // The test moves the generator's clock to pass time; the store's Date header is compared with the real one.
                DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name()).clock(WallClock.SYSTEM)
                        .client(LeaseTableClient.builder().endpoint(proxy.endpoint()).maxAttempts(2)
                                .attemptTimeout(Duration.ofMillis(300)))
                        .build()) {
            LeasedGenerator generator = new LeasedGenerator(
                    new PooledLeaseSource(store, SlotPool.of(0, 0, 0, 3), TERMS, clock, "fail-closed"), TERMS, clock, CODEC);
            List<Long> ids = new ArrayList<>();
            ids.add(generator.nextId());
            Lease first = generator.currentLease().orElseThrow();

            proxy.refuse();
            offset.addAndGet(3_000); // renewal due, window still in force: IDs keep coming from it
            for (int i = 0; i < 100; i++) {
                ids.add(generator.nextId());
            }
            assertEquals(first.window(), generator.currentLease().orElseThrow().window(), "no renewal was confirmed");
            ids.forEach(id -> assertTrue(first.window().contains(timestamp(id)), "ID inside the confirmed window"));

            offset.addAndGet(2_500); // the window has ended and the store still does not answer
            assertThrows(IdUnavailableException.class, generator::nextId);
            assertThrows(IdUnavailableException.class, () -> generator.nextIds(10));

            proxy.passThrough();
            long recovered = generator.nextId();
            Lease now = generator.currentLease().orElseThrow();
            assertTrue(now.window().contains(timestamp(recovered)), "the new ID is inside the newly confirmed window " + now);
            assertTrue(timestamp(recovered) >= first.window().expiresAt(), "nothing was issued after the old window ended until the store confirmed");
            ids.add(recovered);
            assertEquals(ids.size(), ids.stream().distinct().count());
        }
    }

    @Test
    void aStoreThatStaysDownGivesUnavailableBeforeAnyIdIsIssued(TestTable table) {
        try (FaultyProxy proxy = FaultyProxy.inFrontOf(table.endpoint());
                DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                        .client(LeaseTableClient.builder().endpoint(proxy.endpoint()).maxAttempts(2)
                                .attemptTimeout(Duration.ofMillis(300)))
                        .build()) {
            LeasedGenerator generator = new LeasedGenerator(
                    new PooledLeaseSource(store, SlotPool.of(0, 0, 0, 3), TERMS, WallClock.SYSTEM, "never-up"), TERMS,
                    WallClock.SYSTEM, CODEC);
            proxy.throttle();
            assertThrows(LeaseStoreUnavailableException.class, generator::nextId);
            proxy.slow(Duration.ofSeconds(3));
            assertThrows(LeaseStoreUnavailableException.class, generator::nextId);
            assertTrue(generator.currentLease().isEmpty());
        }
    }

    private static long timestamp(long id) {
        return CODEC.decode(id).unixMillis();
    }
}
