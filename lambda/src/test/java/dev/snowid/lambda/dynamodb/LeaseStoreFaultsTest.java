package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** An unreachable, slow, throttling or failing store gives LeaseStoreUnavailableException, in bounded time, after bounded retries. */
@OnEveryEngine
class LeaseStoreFaultsTest {

    private static final Slot SLOT = Slot.of(1, 2);
    private static final int ATTEMPTS = 3;
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofMillis(300);

    private TestTable table;
    private FaultyProxy proxy;
    private DynamoDbLeaseStore store;

    @BeforeEach
    void storeBehindProxy(TestTable table) {
        this.table = table;
        proxy = FaultyProxy.inFrontOf(table.endpoint());
        store = DynamoDbLeaseStore.builder().table(table.name())
                .client(LeaseTableClient.builder().endpoint(proxy.endpoint()).maxAttempts(ATTEMPTS).attemptTimeout(ATTEMPT_TIMEOUT))
                .build();
    }

    @AfterEach
    void close() {
        store.close();
        proxy.close();
    }

    @Test
    void refusedConnectionsMakeTheStoreUnavailableAndItRecovers() {
        proxy.refuse();

        LeaseStoreUnavailableException down = unavailableWithin(Duration.ofSeconds(5),
                () -> store.tryAcquire(SLOT, "owner", "h", now(), now() + 10_000));
        assertTrue(down.retryAfterMillis() > 0, "retry after " + down.retryAfterMillis());
        assertTrue(down.getMessage().contains("did not answer"), down.getMessage());

        proxy.passThrough();
        assertTrue(store.tryAcquire(SLOT, "owner", "h", now(), now() + 10_000).isPresent());
    }

    @Test
    void aStoreSlowerThanTheAttemptTimeoutIsUnavailableAfterTheLastAttempt() {
        proxy.slow(Duration.ofSeconds(5));

        LeaseStoreUnavailableException slow = unavailableWithin(Duration.ofSeconds(4), () -> store.ownedExpiries());

        assertEquals(ATTEMPTS, proxy.requests(), "each attempt reached the proxy");
        assertTrue(slow.getMessage().contains("did not answer") && slow.getMessage().contains(ATTEMPTS + " attempts"), slow.getMessage());
        proxy.passThrough();
        assertEquals(0, store.ownedExpiries().size());
    }

    @Test
    void throttlingIsRetriedThenReportedAsUnavailable() {
        proxy.throttle();

        LeaseStoreUnavailableException throttled = unavailableWithin(Duration.ofSeconds(5),
                () -> store.renew(SLOT, "owner", 1, now() + 10_000));

        assertEquals(ATTEMPTS, proxy.requests());
        assertTrue(throttled.getMessage().contains("throttled") && throttled.getMessage().contains("ProvisionedThroughputExceeded"),
                throttled.getMessage());
        assertTrue(throttled.retryAfterMillis() > 0);
    }

    @Test
    void serverErrorsAreRetriedThenReportedAsUnavailable() {
        proxy.fail();

        LeaseStoreUnavailableException failed = unavailableWithin(Duration.ofSeconds(5),
                () -> store.release(SLOT, "owner", 1, now()));

        assertEquals(ATTEMPTS, proxy.requests());
        assertTrue(failed.getMessage().contains("HTTP 500"), failed.getMessage());
    }

    @Test
    void aStoreThatRecoversBetweenAttemptsAnswers() {
        proxy.failNext(ATTEMPTS - 1);

        assertTrue(store.tryAcquire(SLOT, "owner", "h", now(), now() + 10_000).isPresent());
        assertEquals(ATTEMPTS, proxy.requests(), "the failed attempts were retried and the last one succeeded");
    }

    @Test
    void aMissingTableIsReportedWithItsNameAndTheSettingThatNamesIt() {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore missing = DynamoDbLeaseStore.builder().table("no-such-lease-table").tableSetting("LEASE_TABLE_VAR")
                .client(TestStores.clientSettings(table).interceptor(calls)).build()) {
            LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class,
                    () -> missing.tryAcquire(SLOT, "owner", "h", now(), now() + 10_000));

            assertTrue(error.getMessage().contains("'no-such-lease-table' does not exist")
                    && error.getMessage().contains("set LEASE_TABLE_VAR to the name of the lease table"), error.getMessage());
            assertEquals(1, calls.attempts(), "a missing table is not retried");
        }
        try (DynamoDbLeaseStore unnamed = DynamoDbLeaseStore.builder().table("no-such-lease-table")
                .client(TestStores.clientSettings(table)).build()) {
            LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class,
                    () -> unnamed.tryAcquire(SLOT, "owner", "h", now(), now() + 10_000));
            assertTrue(error.getMessage().contains("'no-such-lease-table' does not exist") && !error.getMessage().contains(" set "),
                    "without a setting, none is named: " + error.getMessage());
        }
    }

    @Test
    void aFailedConditionIsAnAnswerNotAFault() {
        SdkCalls calls = new SdkCalls();
        try (DynamoDbLeaseStore counted = DynamoDbLeaseStore.builder().table(table.name())
                .client(TestStores.clientSettings(table).interceptor(calls)).build()) {
            counted.tryAcquire(SLOT, "a", "h", now(), now() + 60_000).orElseThrow();
            calls.clear();

            assertTrue(counted.tryAcquire(SLOT, "b", "h", now(), now() + 60_000).isEmpty());
            assertEquals(1, calls.attempts(), "one round trip, no retry");
        }
    }

    private static LeaseStoreUnavailableException unavailableWithin(Duration bound, Runnable call) {
        long start = System.nanoTime();
        LeaseStoreUnavailableException error = assertThrows(LeaseStoreUnavailableException.class, call::run);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(took.compareTo(bound) < 0, "gave up after " + took + ", bound " + bound);
        return error;
    }

    private static long now() {
        return WallClock.SYSTEM.millis();
    }
}
