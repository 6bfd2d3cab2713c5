package dev.snowid.lambda.dynamodb;

import dev.snowid.region.ClaimRegistry;
import dev.snowid.testing.ClaimRegistryContract;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnEveryEngine;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** The claim registry on each real engine, held to the rules the in-memory fake keeps. */
@OnEveryEngine
class DynamoDbClaimRegistryContractTest extends ClaimRegistryContract {

    private final DynamoDbEngine.Running engine;
    private final List<DynamoDbClaimRegistry> opened = new ArrayList<>();

    DynamoDbClaimRegistryContractTest(DynamoDbEngine.Running engine) {
        this.engine = engine;
    }

    @Override
    protected ClaimRegistry newRegistry() {
        DynamoDbClaimRegistry registry = TestRegistries.registry(engine);
        opened.add(registry);
        return registry;
    }

    @AfterEach
    void close() {
        opened.forEach(DynamoDbClaimRegistry::close);
    }
}
