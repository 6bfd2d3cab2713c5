package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import dev.snowid.lease.LeaseStore;
import dev.snowid.testing.LeaseStoreContract;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** The same rules the in-memory fake is held to, on each real engine: the fake cannot drift from the table. */
@OnEveryEngine
class DynamoDbLeaseStoreContractTest extends LeaseStoreContract {

    private final DynamoDbEngine.Running engine;
    private final List<DynamoDbLeaseStore> opened = new ArrayList<>();

    DynamoDbLeaseStoreContractTest(DynamoDbEngine.Running engine) {
        this.engine = engine;
    }

    @Override
    protected LeaseStore newStore() {
        DynamoDbLeaseStore store = TestStores.store(engine.newTable("contract"), WallClock.SYSTEM);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(DynamoDbLeaseStore::close);
    }
}
