package dev.snowid.lambda.api;

import dev.snowid.WallClock;
import dev.snowid.lambda.region.RegionView;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.PoolParts;
import dev.snowid.lease.LeaseStore;
import dev.snowid.protocol.SlotMap;

/**
 * The slot pool as the lease routes see it: which part may lease what, and the slot map of
 * {@code GET /leases}, read with one Scan of the table. The store hands out no owner tokens for
 * this ({@link LeaseStore#heldSlots()}), so the map cannot leak one.
 */
public final class PoolView {

    private final PoolParts parts;
    private final LeaseStore store;
    private final WallClock clock;
    private final long leaseMillis;
    private final String description;
    private final RegionView region;

    PoolView(PoolParts parts, LeaseStore store, WallClock clock, long leaseMillis, String description, RegionView region) {
        this.region = region;
        this.parts = parts;
        this.store = store;
        this.clock = clock;
        this.leaseMillis = leaseMillis;
        this.description = description;
    }

    public static PoolView of(FunctionSettings settings, LeaseStore store, WallClock clock, RegionView region) {
        return new PoolView(settings.poolParts(), store, clock, settings.leaseTerms().leaseMillis(), settings.poolDescription(), region);
    }

    /** This stack among regions: its region, guard, the registry's claims, the region of an ID. */
    RegionView region() {
        return region;
    }

    PoolParts parts() {
        return parts;
    }

    /** E.g. "datacenters 0-3, machines 0-31; slots 3:0 to 3:31 (32) for POST /leases, the other 96 for the function". */
    String description() {
        return description;
    }

    SlotMap map() {
        var rows = store.heldSlots();
        return SlotMap.of(clock.millis(), leaseMillis, parts.named(), rows).withRegion(region.claims());
    }
}
