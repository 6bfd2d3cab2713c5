package dev.snowid.lambda.dynamodb;

import dev.snowid.lease.LeaseStoreUnavailableException;
import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * How the store makes one SDK call: with what is left of its operation's time budget, and with
 * every failure but a failed condition turned into a {@link LeaseStoreUnavailableException} that
 * says why and when to retry.
 */
final class LeaseTableCalls {

    static final long RETRY_AFTER_OUTAGE_MILLIS = 1_000;
    static final long RETRY_AFTER_MISCONFIGURATION_MILLIS = 60_000;

    private final DynamoDbClient client;
    private final Object store;
    private final String table;
    private final String tableSetting;
    private final String where;
    private final StoreClockSkew skew;
    private final int maxAttempts;
    private final Duration operationTimeout;
    /** What the table is and who creates it, for the message when it does not exist. */
    private final String[] kind;

    /** @param store the store, for messages (its {@code toString} names table and endpoint) */
    LeaseTableCalls(DynamoDbClient client, Object store, String table, String tableSetting, String where, StoreClockSkew skew,
            int maxAttempts, Duration operationTimeout) {
        this(client, store, table, tableSetting, where, skew, maxAttempts, operationTimeout, "lease table",
                "the SAM template creates it");
    }

    /** @param kind what the table is ({@code "lease table"}) and who creates it, for the message when it does not exist */
    LeaseTableCalls(DynamoDbClient client, Object store, String table, String tableSetting, String where, StoreClockSkew skew,
            int maxAttempts, Duration operationTimeout, String... kind) {
        this.client = client;
        this.kind = kind;
        this.store = store;
        this.table = table;
        this.tableSetting = tableSetting;
        this.where = where;
        this.skew = skew;
        this.maxAttempts = maxAttempts;
        this.operationTimeout = operationTimeout;
    }

    OperationDeadline startOperation() {
        return OperationDeadline.startingNow(operationTimeout);
    }

    /**
     * The call gets what is left of its operation's budget. Until the store has answered once in
     * this process (or since a SnapStart restore), an attempt may use all of it: the first
     * attempts of a cold JVM load and initialise the SDK's request and response path inside the
     * attempt, and the attempt timeout, sized for a warm client, would cut them off and start over
     * from scratch (on a slow machine, every time). The operation's bound is the same either way.
     */
    void timeouts(AwsRequestOverrideConfiguration.Builder call, String action, OperationDeadline deadline) {
        Duration left = deadline.remaining(action, store, RETRY_AFTER_OUTAGE_MILLIS);
        call.apiCallTimeout(left);
        if (skew.skewMillis().isEmpty()) {
            call.apiCallAttemptTimeout(left);
        }
    }

    /** One UpdateItem with what is left of its operation's deadline as its {@code apiCallTimeout}. */
    UpdateItemResponse updateItem(String action, OperationDeadline deadline, UpdateItemRequest request) {
        UpdateItemRequest timed = request.toBuilder().overrideConfiguration(o -> timeouts(o, action, deadline)).build();
        return call(action, () -> client.updateItem(timed));
    }

    /** One GetItem, an operation of its own. */
    GetItemResponse getItem(String action, GetItemRequest request) {
        OperationDeadline deadline = startOperation();
        GetItemRequest timed = request.toBuilder().overrideConfiguration(o -> timeouts(o, action, deadline)).build();
        return call(action, () -> client.getItem(timed));
    }

    /**
     * Whether the SDK made more than one attempt before this failed condition: then an earlier
     * attempt may have landed although its answer was lost, and the failed condition may be our own write's doing.
     */
    static boolean wasRetried(ConditionalCheckFailedException conditionFailed) {
        Integer attempts = conditionFailed.numAttempts();
        return attempts == null || attempts > 1;
    }

    /**
     * Runs one SDK call; the SDK has already retried throttling, 5xx and I/O errors. A failed
     * condition passes through for the caller to interpret; everything else means the store is
     * unavailable to us, and the message says why.
     */
    <T> T call(String action, Supplier<T> request) {
        try {
            return request.get();
        } catch (ConditionalCheckFailedException conditionFailed) {
            throw conditionFailed;
        } catch (ResourceNotFoundException missing) {
            throw new LeaseStoreUnavailableException("the " + kind[0] + " '" + table + "' does not exist on " + where
                    + (tableSetting == null ? ": " : ": set " + tableSetting + " to ")
                    + "the name of the " + kind[0] + " (" + kind[1] + ")",
                    RETRY_AFTER_MISCONFIGURATION_MILLIS, missing);
        } catch (AwsServiceException refused) {
            String code = refused.awsErrorDetails() == null ? "" : refused.awsErrorDetails().errorCode();
            if (refused.isThrottlingException() || refused.statusCode() >= 500) {
                throw new LeaseStoreUnavailableException("DynamoDB " + (refused.isThrottlingException() ? "throttled" : "failed")
                        + " '" + action + "' on " + store + " (HTTP " + refused.statusCode() + " " + code + ") after "
                        + maxAttempts + " attempts", RETRY_AFTER_OUTAGE_MILLIS, refused);
            }
            throw new LeaseStoreUnavailableException("DynamoDB refused '" + action + "' on " + store + ": HTTP "
                    + refused.statusCode() + " " + code + ": " + refused.getMessage(), RETRY_AFTER_MISCONFIGURATION_MILLIS, refused);
        } catch (SdkException unreachable) {
            throw new LeaseStoreUnavailableException("DynamoDB did not answer '" + action + "' on " + store + " within "
                    + operationTimeout.toMillis() + " ms (up to " + maxAttempts + " attempts): " + unreachable.getMessage(),
                    RETRY_AFTER_OUTAGE_MILLIS, unreachable);
        }
    }
}
