package dev.snowid.lambda.region;

import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.lease.SlotPool;
import dev.snowid.protocol.RegionClaims;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.Claim;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import dev.snowid.region.RegionGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * This stack among regions, as the API shows it: its region and guard state ({@code /health}),
 * the region that issued an ID ({@code GET /ids/{id}}: the registry's claim of the ID's block at
 * the ID's time; a lone stack names itself for its own pool), and the registry's claims in force
 * (the authenticated slot map). The registry is read at most once a minute for decoding: a claim
 * changes hands rarely, and a decoded ID's region is information, never a decision.
 */
public final class RegionView {

    /** How long a read of the registry answers decodings. */
    static final long DECODE_CACHE_MILLIS = 60_000;
    /**
     * How long decodings do without the registry after a read failed: a registry that does not
     * answer must not hold every decode (and the ids function's concurrency) for its time budget.
     */
    static final long DECODE_RETRY_MILLIS = 10_000;

    private final Claimant self;
    private final SlotPool pool;
    private final ClaimRegistry registry;
    private final RegionGuard guard;
    private final ClaimMarkers markers;
    private final WallClock clock;
    private volatile Map<Block, BlockClaims> cached;
    /** Set while SnapStart priming runs the request path: init makes no network call, so no registry read. */
    private volatile boolean priming;
    private volatile long cachedAt;
    private volatile long failedAt = Long.MIN_VALUE;

    private RegionView(Claimant self, SlotPool pool, ClaimRegistry registry, RegionGuard guard, ClaimMarkers markers, WallClock clock) {
        this.markers = markers;
        this.self = self;
        this.pool = pool;
        this.registry = registry;
        this.guard = guard;
        this.clock = clock;
    }

    /** A lone stack: no registry; it names its own region for the IDs of its own pool. */
    public static RegionView unguarded(Claimant self, SlotPool pool) {
        return new RegionView(self, pool, null, null, null, WallClock.SYSTEM);
    }

    /** A stack guarded by {@code guard} against {@code registry}. */
    public static RegionView guarded(Claimant self, SlotPool pool, ClaimRegistry registry, RegionGuard guard, ClaimMarkers markers,
            WallClock clock) {
        return new RegionView(self, pool, registry, guard, markers, clock);
    }

    /** Runs {@code requestPath} (SnapStart priming, during init) without reading the registry. */
    public <T> T withoutRegistry(java.util.function.Supplier<T> requestPath) {
        priming = true;
        try {
            return requestPath.get();
        } finally {
            priming = false;
        }
    }

    /** This stack's region, as {@code /health} names it. */
    public String region() {
        return self.region();
    }

    /** {@code unguarded}, {@code unchecked}, {@code claimed} or {@code refused}. */
    public String guardState() {
        return guard == null ? RegionGuard.State.UNGUARDED.value() : guard.state().value();
    }

    /**
     * The region whose block issued {@code id} at its time; empty when the registry (or, for a
     * lone stack, its own pool) does not say, or the registry cannot be read.
     */
    public Optional<String> regionOf(SnowflakeId id) {
        if (registry == null) {
            return pool.contains(id.slot()) ? Optional.of(self.region()) : Optional.empty();
        }
        Map<Block, BlockClaims> claims = cachedClaims();
        if (claims == null) {
            return Optional.empty();
        }
        BlockClaims block = claims.get(Block.ofDatacenter(id.datacenter()));
        Claim claim = block == null ? null : block.claimAt(id.unixMillis());
        return claim == null ? Optional.empty() : Optional.of(claim.claimant().region());
    }

    /** The slot map's region part, with the claims in force read now (null claims: no registry, or it could not be read). */
    public RegionClaims claims() {
        List<RegionClaims.Row> rows = null;
        Map<Block, BlockClaims> claims = registry == null ? null : read();
        if (claims != null) {
            rows = new ArrayList<>();
            for (BlockClaims block : claims.values()) {
                Claim current = block.current();
                if (current != null) {
                    rows.add(new RegionClaims.Row(block.block(), current.claimant(), current.from(), current.claimedAt()));
                }
            }
        }
        return new RegionClaims(self, tableState(claims), rows);
    }

    /**
     * The guard as the lease table's claim marker and the registry say it, for the slot map:
     * {@code claimed} (the marker records the registry's claim in force, made from this table),
     * {@code released}, {@code unclaimed} (no marker yet), {@code refused} (anything else); the
     * lease function that answers the map may never have acquired itself.
     *
     * @param claims the registry's claims as just read; null: unreadable, the guard's own state answers
     */
    private String tableState(Map<Block, BlockClaims> claims) {
        if (guard == null || claims == null) {
            return guardState();
        }
        try {
            Optional<ClaimMarker> marker = markers.read(guard.block());
            if (marker.isEmpty()) {
                return "unclaimed";
            }
            Claim current = claims.get(guard.block()).current();
            boolean recorded = marker.get().records(current) && current.heldBy(self, markers.table());
            return recorded ? RegionGuard.State.CLAIMED.value()
                    : marker.get().state() == ClaimMarker.State.RELEASED ? "released" : RegionGuard.State.REFUSED.value();
        } catch (RuntimeException unreadable) {
            return guardState();
        }
    }

    private Map<Block, BlockClaims> cachedClaims() {
        if (priming) {
            return null;
        }
        Map<Block, BlockClaims> claims = cached;
        if (claims != null && clock.millis() - cachedAt <= DECODE_CACHE_MILLIS) {
            return claims;
        }
        return failedAt != Long.MIN_VALUE && clock.millis() - failedAt < DECODE_RETRY_MILLIS ? null : read();
    }

    /** The registry now, remembered for decoding; null when it cannot be read. */
    private Map<Block, BlockClaims> read() {
        try {
            Map<Block, BlockClaims> claims = registry.claims();
            cached = claims;
            cachedAt = clock.millis();
            failedAt = Long.MIN_VALUE;
            return claims;
        } catch (RuntimeException unreadable) {
            failedAt = clock.millis();
            return null;
        }
    }
}
