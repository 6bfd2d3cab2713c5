package dev.snowid.region;

import dev.snowid.WallClock;
import dev.snowid.lease.AcquisitionGuard;
import dev.snowid.lease.LeaseStoreUnavailableException;
import java.time.Instant;

/**
 * The run-time guard of a regional stack: a stack grants only while the claim registry gives its
 * block to a claim of this stack's own lease table. The registry is the authority; the claim
 * marker in the lease table only caches it, so a marker that is restored, copied, hand-written or
 * left from before a release grants nothing.
 * <ul>
 * <li>Before its first grant, and again once {@link #CONFIRMATION_MILLIS} have passed, the guard
 *     reads the registry: the claim in force must be this claimant's, made from this table
 *     ({@link Claim#heldBy}), and the marker must record its claim id. A block nobody claims, with
 *     no marker here, is claimed ({@link BlockHandover#claim}).</li>
 * <li>In between it reads only the marker, which a release turns at once.</li>
 * <li>The confirmation is remembered in this process only, never in the table (a restore or a
 *     copy would carry it), and forgotten on a snapshot restore ({@link #forget}). With the
 *     registry unreachable, a confirmation younger than the interval still grants; else a grant
 *     waits (503, {@link #RETRY_AFTER_REGISTRY_MILLIS}). Renewals go on: a block changes hands only
 *     through the registry, and a release first retires this table's slots.</li>
 * </ul>
 * Every refusal is a {@link BlockNotClaimedException} that names both claims.
 */
public final class RegionGuard implements AcquisitionGuard {

    /**
     * How long a confirmation by the registry lets this process grant without asking it again: also
     * how long new grants go on while the registry's region is down.
     */
    public static final long CONFIRMATION_MILLIS = 600_000;
    /** Retry-After when the block is someone else's or released: an operator has to act first. */
    static final long RETRY_AFTER_REFUSED_MILLIS = 60_000;
    /** Retry-After when a grant waits for the registry. */
    static final long RETRY_AFTER_REGISTRY_MILLIS = 5_000;

    /** What the guard last found, for {@code /health}. */
    public enum State {
        /** No registry: a lone stack, which nothing guards. */
        UNGUARDED,
        /** No acquisition asked yet in this process (or since a snapshot restore). */
        UNCHECKED,
        /** The registry confirmed the block's claim for this stack's table. */
        CLAIMED,
        /** The last acquisition was refused. */
        REFUSED;

        /** As {@code /health} and the slot map say it. */
        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** A claim id the registry confirmed, and when (this process's wall clock). */
    private static final class Confirmation {
        final String claimId;
        final long at;

        Confirmation(String claimId, long at) {
            this.claimId = claimId;
            this.at = at;
        }

        /** A clock that went back makes it stale too: then the registry is asked again. */
        boolean freshAt(long now) {
            return now >= at && now - at < CONFIRMATION_MILLIS;
        }
    }

    private final Block block;
    private final Claimant claimant;
    private final BlockHandover handover;
    private final ClaimMarkers markers;
    private final WallClock clock;
    private volatile State state = State.UNCHECKED;
    private volatile Confirmation confirmed;

    /** @param handover the registry and this stack's lease table, as the guard reads and claims them */
    public RegionGuard(Block block, Claimant claimant, BlockHandover handover) {
        this.block = block;
        this.claimant = claimant;
        this.handover = handover;
        this.markers = handover.markers();
        this.clock = handover.clock();
    }

    public Block block() {
        return block;
    }

    public Claimant claimant() {
        return claimant;
    }

    public State state() {
        return state;
    }

    @Override
    public void beforeAcquisition() {
        try {
            ClaimMarker marker = markers.read(block).orElse(null); // the own table down is the store's outage
            Confirmation last = confirmed;
            if (last == null || !last.freshAt(clock.millis()) || marker == null || !last.claimId.equals(marker.claimId())
                    || marker.state() != ClaimMarker.State.CLAIMED) {
                confirm(marker, false);
            }
            state = State.CLAIMED;
        } catch (BlockNotClaimedException refused) {
            state = State.REFUSED;
            throw refused;
        }
    }

    /** Renewals ask the registry once the confirmation is stale; they stop only when it names another claim. */
    @Override
    public void beforeRenewal() {
        Confirmation last = confirmed;
        if (last != null && last.freshAt(clock.millis())) {
            return;
        }
        try {
            confirm(markers.read(block).orElse(null), true);
        } catch (BlockNotClaimedException refused) {
            state = State.REFUSED;
            throw refused;
        }
    }

    /** Forgets the registry's confirmation: after a snapshot restore, the registry is asked again before the next grant. */
    public void forget() {
        confirmed = null;
        state = State.UNCHECKED;
    }

    /**
     * Confirms the marker against the registry, claiming a block nobody holds first. A renewal
     * never claims, and goes on while the registry cannot be reached.
     */
    private void confirm(ClaimMarker marker, boolean renewal) {
        String table = markers.table();
        for (int round = 0; ; round++) {
            BlockClaims claims;
            try {
                claims = handover.registry().claims().get(block);
            } catch (LeaseStoreUnavailableException unreachable) {
                if (renewal) {
                    return;
                }
                throw waiting(unreachable);
            }
            Claim current = claims.current();
            if (current != null && current.heldBy(claimant, table)) {
                ClaimMarker recorded = marker == null ? handover.complete(block, claimant, current, claims.floor()) : marker;
                if (!recorded.records(current)) {
                    throw refused(recorded, current, table);
                }
                confirmed = new Confirmation(current.claimId(), clock.millis());
                return;
            }
            boolean unclaimed = current == null && marker == null;
            boolean legacy = current != null && current.claimId() == null && current.claimant().equals(claimant) && marker != null
                    && marker.claimId() == null && marker.confirms(claimant);
            if (renewal || round > 0 || !(unclaimed || legacy)) {
                throw refused(marker, current, table);
            }
            claim();
            marker = markers.read(block).orElse(null);
        }
    }

    private void claim() {
        try {
            handover.claim(block, claimant);
        } catch (BlockClaimedException taken) {
            // Another environment of this stack may have won the same claim: the next round reads it.
            Claim current = taken.claims() == null ? null : taken.claims().current();
            if (current == null || !current.heldBy(claimant, markers.table())) {
                throw new BlockNotClaimedException(block + " is claimed by " + describe(current) + " in the claim registry, so this"
                        + " stack (" + claimant + ") refuses to lease from it: give this stack another block, or release it there"
                        + " first (docs/multi-region.md)", RETRY_AFTER_REFUSED_MILLIS, taken);
            }
        } catch (LeaseStoreUnavailableException unavailable) {
            throw waiting(unavailable);
        }
    }

    private BlockNotClaimedException waiting(LeaseStoreUnavailableException unreachable) {
        return new BlockNotClaimedException("the claim registry could not confirm " + block + " for this stack (" + claimant + "): "
                + unreachable.getMessage() + "; a grant waits until it answers (a confirmation lasts " + CONFIRMATION_MILLIS / 1000
                + " s in the process that got it; renewals go on)", RETRY_AFTER_REGISTRY_MILLIS, unreachable);
    }

    private BlockNotClaimedException refused(ClaimMarker marker, Claim current, String table) {
        String registry = "the registry gives " + block + " to " + describe(current);
        String here = "this lease table's marker " + (marker == null ? "is missing" : "says " + marker) + " (this table: " + table + ")";
        String fix;
        if (current == null && marker != null && marker.state() == ClaimMarker.State.RELEASED) {
            fix = "the block was released from this stack at " + Instant.ofEpochMilli(marker.at()) + "; an operator claims it again"
                    + " with the region command's 'claim'";
        } else if (current == null) {
            fix = "the marker is left from a claim that ended (a table restored from before a release, or a copied or hand-written"
                    + " marker); an operator claims the block again with the region command's 'claim'";
        } else if (current.claimant().equals(claimant) && !current.heldBy(claimant, table)) {
            fix = "the claim was made from another lease table with this stack's name: this table is a copy or was recreated."
                    + " If that table was deleted, release the block with --claim-table-deleted and claim it again; if it still"
                    + " serves (a same-named stack elsewhere), give this stack another block";
        } else if (!current.claimant().equals(claimant)) {
            fix = "give this stack another block, or release it there first";
        } else {
            fix = "the marker does not record the registry's claim (a restored or hand-written marker); an operator claims the"
                    + " block again with the region command's 'claim'";
        }
        return new BlockNotClaimedException(registry + ", but " + here + ", so this stack (" + claimant + ") refuses to lease: " + fix
                + " (docs/multi-region.md)", RETRY_AFTER_REFUSED_MILLIS, null);
    }

    private static String describe(Claim claim) {
        return claim == null ? "no claim (it is free)" : claim.claimant() + (claim.claimId() == null ? "" : " (claim " + claim.claimId()
                + " of table " + claim.table() + ")");
    }
}
