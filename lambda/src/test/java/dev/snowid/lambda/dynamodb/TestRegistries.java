package dev.snowid.lambda.dynamodb;

import dev.snowid.testing.engine.DynamoDbEngine;
import java.util.UUID;

/** Claim registries on a test engine: a fresh table each, with the function's own client settings. */
public final class TestRegistries {

    private TestRegistries() {
    }

    /** A fresh, empty registry table on {@code engine}; its name. */
    public static String newTable(DynamoDbEngine.Running engine) {
        String table = "snowid-test-registry-" + UUID.randomUUID();
        RegistryTable.createIfMissing(engine.client(), table);
        return table;
    }

    /** A registry on a fresh table of {@code engine}; the caller closes it. */
    public static DynamoDbClaimRegistry registry(DynamoDbEngine.Running engine) {
        return registry(engine, newTable(engine));
    }

    /** A registry on {@code table} of {@code engine}, with its own SDK client (as another region's function has). */
    public static DynamoDbClaimRegistry registry(DynamoDbEngine.Running engine, String table) {
        return DynamoDbClaimRegistry.create(table, "SNOWID_REGISTRY_TABLE", LeaseTableClient.builder().endpoint(engine.endpoint()), "");
    }
}
