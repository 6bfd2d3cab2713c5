package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.testing.BlockHandoverContract;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** Two regions' lease tables and one registry on each real engine: the handover contract the fakes keep. */
@OnEveryEngine
class BlockHandoverOnDynamoDbTest extends BlockHandoverContract {

    private final DynamoDbEngine.Running engine;
    private final List<AutoCloseable> opened = new ArrayList<>();

    BlockHandoverOnDynamoDbTest(DynamoDbEngine.Running engine) {
        this.engine = engine;
    }

    @Override
    protected ClaimRegistry newRegistry() {
        DynamoDbClaimRegistry registry = TestRegistries.registry(engine);
        opened.add(registry);
        return registry;
    }

    @Override
    protected RegionTable newRegion() {
        DynamoDbLeaseStore store = TestStores.store(engine.newTable("region"), WallClock.SYSTEM);
        opened.add(store);
        return new RegionTable(store, store.claimMarkers());
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }
}
