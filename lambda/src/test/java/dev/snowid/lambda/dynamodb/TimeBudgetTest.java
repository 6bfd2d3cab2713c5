package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With the production client settings, a store that does not answer ends an acquisition with
 * LeaseStoreUnavailableException inside the documented budget (LeaseTableClient), so the
 * function answers 503 before Lambda's timeout kills it. The bounds carry slack for a loaded
 * machine: they catch a hang or a budget overrun, they do not measure speed.
 */
@OnEveryEngine
class TimeBudgetTest {

    private static final Duration SLACK = Duration.ofSeconds(3);

    private FaultyProxy proxy;
    private DynamoDbLeaseStore store;

    @BeforeEach
    void productionClientBehindProxy(TestTable table) {
        proxy = FaultyProxy.inFrontOf(table.endpoint());
        store = DynamoDbLeaseStore.builder().table(table.name())
                .client(LeaseTableClient.builder().endpoint(proxy.endpoint())).build();
    }

    @AfterEach
    void close() {
        store.close();
        proxy.close();
    }

    @Test
    void theBudgetFitsTheFunctionTimeoutTheTemplateSets() {
        // infra/template.yaml gives the function 15 s; the request budget must leave room to answer.
        assertTrue(LeaseTableClient.REQUEST_BUDGET.compareTo(Duration.ofSeconds(12)) <= 0, LeaseTableClient.REQUEST_BUDGET.toString());
        assertTrue(LeaseTableClient.OPERATION_TIMEOUT.multipliedBy(LeaseTableClient.OPERATIONS_PER_ACQUISITION)
                .compareTo(LeaseTableClient.ACQUISITION_BUDGET) <= 0);
    }

    @Test
    void anAcquisitionFromASlowStoreGivesUpWithinTheBudget() {
        proxy.slow(Duration.ofSeconds(30));
        PooledLeaseSource source = new PooledLeaseSource(store, SlotPool.of(0, 0, 0, 3), LeaseTerms.DEFAULT, WallClock.SYSTEM, "test");

        Duration took = timeToFail(source::acquire);

        assertTrue(took.compareTo(LeaseTableClient.ACQUISITION_BUDGET.plus(SLACK)) < 0, "gave up after " + took);
    }

    @Test
    void anAcquisitionWithARequestIdFromASlowStoreGivesUpWithinTheRequestBudget() {
        proxy.slow(Duration.ofSeconds(30));
        PooledLeaseSource source = new PooledLeaseSource(store, SlotPool.of(0, 0, 0, 3), LeaseTerms.DEFAULT, WallClock.SYSTEM, "test");

        Duration took = timeToFail(() -> source.acquire("test", "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21"));

        assertTrue(took.compareTo(LeaseTableClient.REQUEST_BUDGET.plus(SLACK)) < 0, "gave up after " + took);
    }

    @Test
    void oneOperationGivesUpWithinItsOwnTimeoutWhateverItsRetries() {
        proxy.slow(Duration.ofSeconds(30));

        // Each is one operation of the acquisition's budget: its calls and retries share one deadline.
        Duration scan = timeToFail(store::ownedExpiries);
        Duration release = timeToFail(() -> store.release(Slot.of(0, 1), "0123456789abcdef0123456789abcdef", 1,
                WallClock.SYSTEM.millis()));

        Duration bound = LeaseTableClient.OPERATION_TIMEOUT.plus(Duration.ofMillis(1_500));
        assertTrue(scan.compareTo(bound) < 0, "scan gave up after " + scan + ", bound " + bound);
        assertTrue(release.compareTo(bound) < 0, "release gave up after " + release + ", bound " + bound);
    }

    private static Duration timeToFail(Runnable call) {
        long start = System.nanoTime();
        assertThrows(LeaseStoreUnavailableException.class, call::run);
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
