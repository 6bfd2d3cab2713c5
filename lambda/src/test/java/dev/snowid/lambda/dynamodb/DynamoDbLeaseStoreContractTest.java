package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import dev.snowid.lambda.engine.DynamoDbEngine;
import dev.snowid.lease.LeaseStore;
import dev.snowid.testing.LeaseStoreContract;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The same rules the in-memory fake is held to, on the real engine: the fake cannot drift from the table. */
@ExtendWith(DynamoDbEngine.class)
class DynamoDbLeaseStoreContractTest extends LeaseStoreContract {

    private final List<DynamoDbLeaseStore> opened = new ArrayList<>();

    @Override
    protected LeaseStore newStore() {
        DynamoDbLeaseStore store = DynamoDbEngine.newTable("contract").store(WallClock.SYSTEM);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(DynamoDbLeaseStore::close);
    }
}
