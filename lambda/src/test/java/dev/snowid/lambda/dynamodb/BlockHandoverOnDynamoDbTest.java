package dev.snowid.lambda.dynamodb;

import dev.snowid.WallClock;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.testing.BlockHandoverContract;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import dev.snowid.testing.engine.TestTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Two regions' lease tables and one registry on each real engine: the handover contract the fakes keep. */
@OnEveryEngine
class BlockHandoverOnDynamoDbTest extends BlockHandoverContract {

    private final DynamoDbEngine.Running engine;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final Map<RegionTable, String> tables = new IdentityHashMap<>();

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
        return open(engine.newTable("region"));
    }

    /** A new table with every item of the old one, as a restore from a backup or an export into another stack makes. */
    @Override
    protected RegionTable copyOf(RegionTable region) {
        String from = tables.get(region);
        TestTable copy = engine.newTable("copy");
        for (Map<String, AttributeValue> item : engine.client().scanPaginator(s -> s.tableName(from).consistentRead(true)).items()) {
            engine.client().putItem(p -> p.tableName(copy.name()).item(item));
        }
        return open(copy);
    }

    /** The table deleted and created again under its name: only its creation time tells the two apart. */
    @Override
    protected RegionTable recreated(RegionTable region) {
        String name = tables.get(region);
        engine.client().deleteTable(d -> d.tableName(name));
        engine.client().waiter().waitUntilTableNotExists(d -> d.tableName(name));
        LeaseTable.createIfMissing(engine.client(), name);
        return open(new TestTable(name, engine.endpoint(), engine.client()));
    }

    @Override
    protected void forge(RegionTable region, ClaimMarker marker) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(LeaseTableSchema.SLOT, AttributeValue.fromN(Long.toString(LeaseTableMarkers.key(marker.block()))));
        item.put(LeaseTableMarkers.REGION, AttributeValue.fromS(marker.claimant().region()));
        item.put(LeaseTableMarkers.STACK, AttributeValue.fromS(marker.claimant().stack()));
        item.put(LeaseTableMarkers.STATE, AttributeValue.fromS(marker.state().name().toLowerCase(java.util.Locale.ROOT)));
        item.put(LeaseTableMarkers.FLOOR, AttributeValue.fromN(Long.toString(marker.floor())));
        item.put(LeaseTableMarkers.AT, AttributeValue.fromN(Long.toString(marker.at())));
        if (marker.claimId() != null) {
            item.put(LeaseTableMarkers.CLAIM_ID, AttributeValue.fromS(marker.claimId()));
        }
        engine.client().putItem(p -> p.tableName(tables.get(region)).item(item));
    }

    private RegionTable open(TestTable table) {
        DynamoDbLeaseStore store = TestStores.store(table, WallClock.SYSTEM);
        opened.add(store);
        RegionTable region = new RegionTable(store, store.claimMarkers());
        tables.put(region, table.name());
        return region;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable closeable : opened) {
            closeable.close();
        }
    }
}
