package dev.snowid.lambda.dynamodb;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Creates the lease table on a local engine (dynalite, LocalStack) for the local runner and the
 * tests. In AWS the SAM template creates it (with TTL on {@link LeaseTableSchema#TTL}); the
 * function itself never creates tables and its IAM policy does not allow it.
 */
public final class LeaseTable {

    private static final Duration ACTIVE_TIMEOUT = Duration.ofSeconds(60);

    private LeaseTable() {
    }

    /** Creates {@code tableName} on the engine at {@code endpoint} unless it exists, and waits until it is active. */
    public static void createIfMissing(URI endpoint, String tableName) {
        try (DynamoDbClient client = LeaseTableClient.builder().endpoint(endpoint).attemptTimeout(Duration.ofSeconds(5)).build()) {
            createIfMissing(client, tableName);
        }
    }

    /** Creates {@code tableName} (key {@code slot} N, on-demand) unless it exists, and waits until it is active. */
    public static void createIfMissing(DynamoDbClient client, String tableName) {
        try {
            client.createTable(table -> table
                    .tableName(tableName)
                    .attributeDefinitions(AttributeDefinition.builder()
                            .attributeName(LeaseTableSchema.SLOT).attributeType(ScalarAttributeType.N).build())
                    .keySchema(KeySchemaElement.builder()
                            .attributeName(LeaseTableSchema.SLOT).keyType(KeyType.HASH).build())
                    .billingMode(BillingMode.PAY_PER_REQUEST));
        } catch (ResourceInUseException exists) {
            // Created before (or being created): wait for it below.
        }
        awaitActive(client, tableName);
    }

    private static void awaitActive(DynamoDbClient client, String tableName) {
        long deadline = System.nanoTime() + ACTIVE_TIMEOUT.toNanos();
        while (true) {
            try {
                TableStatus status = client.describeTable(d -> d.tableName(tableName)).table().tableStatus();
                if (status == TableStatus.ACTIVE) {
                    return;
                }
            } catch (ResourceNotFoundException notYetVisible) {
                // Eventually consistent right after CreateTable.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("lease table '" + tableName + "' did not become ACTIVE within " + ACTIVE_TIMEOUT);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for table '" + tableName + "'", e);
            }
        }
    }
}
