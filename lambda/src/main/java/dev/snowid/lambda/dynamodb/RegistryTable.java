package dev.snowid.lambda.dynamodb;

import java.net.URI;
import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * Creates the claim registry table on a local engine (the local runner, tests). In AWS,
 * {@code infra/registry.yaml} creates it; the functions never create tables.
 */
public final class RegistryTable {

    private RegistryTable() {
    }

    /** Creates {@code table} (key {@link RegistrySchema#BLOCK} N, on demand) on the engine at {@code endpoint} unless it exists. */
    public static void createIfMissing(URI endpoint, String table) {
        try (DynamoDbClient client = LeaseTableClient.builder().endpoint(endpoint).attemptTimeout(Duration.ofSeconds(5)).build()) {
            createIfMissing(client, table);
        }
    }

    public static void createIfMissing(DynamoDbClient client, String table) {
        try {
            client.createTable(create -> create.tableName(table)
                    .attributeDefinitions(AttributeDefinition.builder().attributeName(RegistrySchema.BLOCK)
                            .attributeType(ScalarAttributeType.N).build())
                    .keySchema(KeySchemaElement.builder().attributeName(RegistrySchema.BLOCK).keyType(KeyType.HASH).build())
                    .billingMode(BillingMode.PAY_PER_REQUEST));
        } catch (ResourceInUseException exists) {
            // Created before, or by another runner just now: wait for it below.
        }
        try (DynamoDbWaiter waiter = DynamoDbWaiter.builder().client(client).build()) {
            waiter.waitUntilTableExists(describe -> describe.tableName(table), wait -> wait.waitTimeout(Duration.ofSeconds(60)));
        }
    }
}
