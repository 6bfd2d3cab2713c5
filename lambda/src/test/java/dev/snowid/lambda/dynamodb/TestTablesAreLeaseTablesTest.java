package dev.snowid.lambda.dynamodb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.LeaseTableLayout;
import dev.snowid.testing.engine.TestTable;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * The tests' tables are made by the engines module, which cannot call this module's code; they
 * must be what {@link LeaseTable} makes, or every engine suite tests another table.
 */
@ExtendWith(DynamoDbEngine.class)
class TestTablesAreLeaseTablesTest {

    @Test
    void aTestTableHasTheLeaseTablesKeyAttributesAndBilling(TestTable table) {
        String leaseTable = table.name() + "-by-lease-table";
        LeaseTable.createIfMissing(table.client(), leaseTable);
        try {
            TableDescription expected = table.client().describeTable(d -> d.tableName(leaseTable)).table();
            TableDescription actual = table.client().describeTable(d -> d.tableName(table.name())).table();

            assertEquals(LeaseTableSchema.SLOT, LeaseTableLayout.KEY, "the key the layout names");
            assertEquals(expected.keySchema(), actual.keySchema(), "key schema");
            assertEquals(expected.attributeDefinitions(), actual.attributeDefinitions(), "attribute definitions");
            assertEquals(billing(expected), billing(actual), "billing mode");
            assertEquals(expected.globalSecondaryIndexes(), actual.globalSecondaryIndexes(), "global secondary indexes");
            assertEquals(expected.localSecondaryIndexes(), actual.localSecondaryIndexes(), "local secondary indexes");
        } finally {
            table.client().deleteTable(d -> d.tableName(leaseTable)); // the engine removes only the tables it made
        }
    }

    private static Optional<BillingMode> billing(TableDescription table) {
        return Optional.ofNullable(table.billingModeSummary()).map(BillingModeSummary::billingMode);
    }
}
