package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import dev.snowid.testing.engine.TestTable;

/** The lease store on a test's table, with the function's own client settings. */
public final class TestStores {

    private TestStores() {
    }

    /** Client settings pointing at the table's engine, to adjust (timeouts, interceptors) before building a store. */
    public static LeaseTableClient.Builder clientSettings(TestTable table) {
        return LeaseTableClient.builder().endpoint(table.endpoint());
    }

    /** A store on {@code table} with the production client settings; the caller closes it. */
    public static DynamoDbLeaseStore store(TestTable table, WallClock clock) {
        return DynamoDbLeaseStore.builder().table(table.name()).clock(clock).client(clientSettings(table)).build();
    }
}
