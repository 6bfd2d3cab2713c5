package dev.snowid.lambda.region;

import dev.snowid.WallClock;
import dev.snowid.lambda.dynamodb.DynamoDbClaimRegistry;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.RegionSettings;
import dev.snowid.lease.AcquisitionGuard;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.SlotPool;
import dev.snowid.region.BlockHandover;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.RegionGuard;

/**
 * A function's place among regions, assembled from its settings: with a registry, the guard its
 * pools ask before every acquisition and the view the API shows; without one, no guard and a view
 * that says "unguarded".
 */
public final class RegionalStack implements AutoCloseable {

    private final AcquisitionGuard guard;
    private final RegionView view;
    private final ClaimRegistry registry;

    private RegionalStack(AcquisitionGuard guard, RegionView view, ClaimRegistry registry) {
        this.guard = guard;
        this.view = view;
        this.registry = registry;
    }

    /**
     * @param table    the stack's lease table, for seeding a new claim's slots
     * @param markers  the claim markers in that table; may be null for a lone stack
     * @param registry the registry to use; null: the one the settings name, over the SDK
     */
    public static RegionalStack of(RegionSettings settings, SlotPool pool, LeaseStore table, ClaimMarkers markers,
            ClaimRegistry registry, WallClock clock) {
        if (!settings.guarded()) {
            return new RegionalStack(AcquisitionGuard.NONE, RegionView.unguarded(settings.claimant(), pool), null);
        }
        if (markers == null) {
            throw new IllegalStateException("a guarded stack needs its lease table's claim markers");
        }
        ClaimRegistry claims = registry != null ? registry : DynamoDbClaimRegistry.create(settings.registryTable().orElseThrow(),
                FunctionSettings.REGISTRY_TABLE, settings.registryRegion().orElse(null), settings.registryEndpoint());
        RegionGuard guard = new RegionGuard(settings.block().orElseThrow(), settings.claimant(),
                new BlockHandover(claims, table, markers, clock));
        return new RegionalStack(guard, RegionView.guarded(settings.claimant(), pool, claims, guard, markers, clock), claims);
    }

    /** What every new acquisition of this stack's pools asks first. */
    public AcquisitionGuard guard() {
        return guard;
    }

    /** After a snapshot restore: the registry is asked again before the next grant (a snapshot's confirmation is not this copy's). */
    public void forgetConfirmation() {
        if (guard instanceof RegionGuard regionGuard) {
            regionGuard.forget();
        }
    }

    public RegionView view() {
        return view;
    }

    @Override
    public void close() throws Exception {
        if (registry instanceof AutoCloseable closeable) {
            closeable.close();
        }
    }
}
