package dev.snowid.testing.engine;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * How the tests' tables are laid out: as the lease table, keyed by the number {@value #KEY},
 * on demand. The lease table's layout is the lambda module's ({@code LeaseTable},
 * {@code LeaseTableSchema}); this module sits below lambda, whose own tests use it, so it cannot
 * call that code. Lambda's {@code TestTablesAreLeaseTablesTest} keeps the two the same.
 */
public final class LeaseTableLayout {

    /** The partition key: {@code LeaseTableSchema.SLOT}. */
    public static final String KEY = "slot";
    private static final Duration ACTIVE_WITHIN = Duration.ofSeconds(60);

    private LeaseTableLayout() {
    }

    /** Creates {@code table} on the engine {@code client} talks to, and waits until it is active. */
    static void create(DynamoDbClient client, String table) {
        client.createTable(create -> create
                .tableName(table)
                .attributeDefinitions(AttributeDefinition.builder().attributeName(KEY).attributeType(ScalarAttributeType.N).build())
                .keySchema(KeySchemaElement.builder().attributeName(KEY).keyType(KeyType.HASH).build())
                .billingMode(BillingMode.PAY_PER_REQUEST));
        await("table " + table + " ACTIVE").atMost(ACTIVE_WITHIN).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                .ignoreException(ResourceNotFoundException.class) // eventually consistent right after CreateTable
                .until(() -> client.describeTable(d -> d.tableName(table)).table().tableStatus() == TableStatus.ACTIVE);
    }
}
