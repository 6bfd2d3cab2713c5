package dev.snowid.testing;

import dev.snowid.region.ClaimRegistry;

/** The fake registry keeps the contract the registry on DynamoDB keeps. */
class InMemoryClaimRegistryTest extends ClaimRegistryContract {

    @Override
    protected ClaimRegistry newRegistry() {
        return new InMemoryClaimRegistry();
    }
}
