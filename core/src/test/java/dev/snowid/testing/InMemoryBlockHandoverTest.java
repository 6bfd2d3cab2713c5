package dev.snowid.testing;

import dev.snowid.region.ClaimRegistry;

/** The region logic on the fakes: the same contract the DynamoDB implementations keep on every engine. */
class InMemoryBlockHandoverTest extends BlockHandoverContract {

    @Override
    protected ClaimRegistry newRegistry() {
        return new InMemoryClaimRegistry();
    }

    @Override
    protected RegionTable newRegion() {
        return new RegionTable(new InMemoryLeaseStore(), new InMemoryClaimMarkers());
    }
}
