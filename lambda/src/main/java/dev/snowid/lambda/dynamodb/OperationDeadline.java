package dev.snowid.lambda.dynamodb;

import dev.snowid.lease.LeaseStoreUnavailableException;
import java.time.Duration;

/**
 * The deadline of one store operation: every SDK call it makes (a write, the writes that confirm
 * or follow it, each with its retries) gets what is left as its {@code apiCallTimeout}, so the
 * operation as a whole ends within {@link LeaseTableClient#OPERATION_TIMEOUT}, however many calls it needs.
 */
final class OperationDeadline {

    private final Duration budget;
    private final long deadlineNanos;

    private OperationDeadline(Duration budget) {
        this.budget = budget;
        this.deadlineNanos = System.nanoTime() + budget.toNanos();
    }

    static OperationDeadline startingNow(Duration budget) {
        return new OperationDeadline(budget);
    }

    /**
     * The time left for the next call of {@code action}.
     *
     * @throws LeaseStoreUnavailableException when none is left: the store is too slow to answer in time
     */
    Duration remaining(String action, Object store, long retryAfterMillis) {
        long left = deadlineNanos - System.nanoTime();
        if (left < Duration.ofMillis(1).toNanos()) {
            throw new LeaseStoreUnavailableException("'" + action + "' on " + store + " ran out of its time budget of "
                    + budget.toMillis() + " ms", retryAfterMillis, null);
        }
        return Duration.ofNanos(left);
    }
}
