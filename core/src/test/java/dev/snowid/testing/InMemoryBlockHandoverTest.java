package dev.snowid.testing;

import dev.snowid.region.ClaimMarker;
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

    /** The markers copied; the slots start empty (the fakes' store has no copy, and no test here reads them). */
    @Override
    protected RegionTable copyOf(RegionTable table) {
        return new RegionTable(new InMemoryLeaseStore(), ((InMemoryClaimMarkers) table.markers).copy());
    }

    @Override
    protected RegionTable recreated(RegionTable table) {
        return newRegion();
    }

    @Override
    protected void forge(RegionTable table, ClaimMarker marker) {
        ((InMemoryClaimMarkers) table.markers).forge(marker);
    }
}
