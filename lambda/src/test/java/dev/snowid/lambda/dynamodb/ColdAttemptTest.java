package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.WallClock;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.SdkCalls;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * A cold JVM's first attempts do their class loading inside the attempt. Until the store has
 * answered once, an attempt may take the operation's whole budget; after that the warm attempt
 * timeout applies again. The slow client is played by an interceptor that stalls the attempt
 * before anything is sent (so the engine never sees a request cut off).
 */
@ExtendWith(DynamoDbEngine.class)
class ColdAttemptTest {

    /** Longer than an attempt's timeout, well inside an operation's budget. */
    private static final Duration STALL = LeaseTableClient.ATTEMPT_TIMEOUT.plusMillis(300);

    @Test
    void aStalledFirstAttemptIsNotCutOffButAWarmOneIs(TestTable table) {
        SdkCalls calls = new SdkCalls();
        Stall stall = new Stall();
        try (DynamoDbLeaseStore store = DynamoDbLeaseStore.builder().table(table.name())
                .client(TestStores.clientSettings(table).interceptor(calls).interceptor(stall)).build()) {
            stall.next.set(true);
            store.ownedExpiries();
            assertEquals(1, calls.attempts(), "the cold first call stalled " + STALL + " and still made one attempt");
            assertTrue(store.clockSkewMillis().isPresent(), "the store answered");

            calls.clear();
            stall.next.set(true);
            store.ownedExpiries();
            assertEquals(2, calls.attempts(), "warm, the stalled attempt was cut off after " + LeaseTableClient.ATTEMPT_TIMEOUT
                    + " and retried");

            store.forgetClockSkew(); // a SnapStart restore: cold again
            calls.clear();
            stall.next.set(true);
            store.ownedExpiries();
            assertEquals(1, calls.attempts(), "after a restore the first call may take its time again");
        }
    }

    /** Stalls the next attempt once, before it sends anything. */
    private static final class Stall implements ExecutionInterceptor {
        final AtomicBoolean next = new AtomicBoolean();

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (next.getAndSet(false)) {
                try {
                    Thread.sleep(STALL.toMillis());
                } catch (InterruptedException cutOff) {
                    Thread.currentThread().interrupt(); // the attempt timeout interrupts the stalled attempt
                }
            }
        }
    }
}
