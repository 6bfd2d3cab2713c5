package dev.snowid.region;

import dev.snowid.lease.AcquisitionGuard;
import dev.snowid.lease.LeaseStoreUnavailableException;
import java.time.Instant;
import java.util.Optional;

/**
 * The run-time guard of a regional stack: before every acquisition, the stack's block must be
 * claimed for its region. The claim marker in the stack's own lease table answers (one consistent
 * read); only a block this table never claimed asks the registry, and claims it
 * ({@link BlockHandover#claim}). So a stack that confirmed its claim keeps leasing while the
 * registry's region is down, and a block released by an operator stays refused until an operator
 * claims it again. Every refusal is a {@link BlockNotClaimedException} that names both claims.
 */
public final class RegionGuard implements AcquisitionGuard {

    /** Retry-After when the block is someone else's or released: an operator has to act first. */
    static final long RETRY_AFTER_REFUSED_MILLIS = 60_000;
    /** Retry-After when a new claim waits for the registry. */
    static final long RETRY_AFTER_REGISTRY_MILLIS = 5_000;

    /** What the guard last found, for {@code /health}. */
    public enum State {
        /** No registry: a lone stack, which nothing guards. */
        UNGUARDED,
        /** No acquisition asked yet in this process. */
        UNCHECKED,
        /** The block is claimed for this stack's region. */
        CLAIMED,
        /** The last acquisition was refused. */
        REFUSED;

        /** As {@code /health} and the slot map say it. */
        public String value() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final Block block;
    private final Claimant claimant;
    private final ClaimMarkers markers;
    private final BlockHandover handover;
    private volatile State state = State.UNCHECKED;

    public RegionGuard(Block block, Claimant claimant, ClaimMarkers markers, BlockHandover handover) {
        this.block = block;
        this.claimant = claimant;
        this.markers = markers;
        this.handover = handover;
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
            Optional<ClaimMarker> marker = markers.read(block);
            ClaimMarker confirmed = marker.isPresent() ? marker.get() : claim();
            if (!confirmed.confirms(claimant)) {
                throw refused(confirmed);
            }
            state = State.CLAIMED;
        } catch (BlockNotClaimedException refused) {
            state = State.REFUSED;
            throw refused;
        }
    }

    private ClaimMarker claim() {
        try {
            return handover.claim(block, claimant);
        } catch (BlockClaimedException taken) {
            Claim current = taken.claims() == null ? null : taken.claims().current();
            throw new BlockNotClaimedException(block + " is claimed by " + (current == null ? "another claimant" : current.claimant())
                    + " in the claim registry, so this stack (" + claimant + ") refuses to lease from it: give this stack"
                    + " another block, or release it there first (docs/multi-region.md)", RETRY_AFTER_REFUSED_MILLIS, taken);
        } catch (LeaseStoreUnavailableException unavailable) {
            throw new BlockNotClaimedException("this stack (" + claimant + ") has not claimed " + block + " yet, and the claim"
                    + " registry could not confirm a claim: " + unavailable.getMessage() + "; a new claim waits for the registry"
                    + " (stacks with a confirmed claim keep leasing)", RETRY_AFTER_REGISTRY_MILLIS, unavailable);
        }
    }

    private BlockNotClaimedException refused(ClaimMarker marker) {
        String when = Instant.ofEpochMilli(marker.at()).toString();
        if (marker.state() == ClaimMarker.State.RELEASED) {
            return new BlockNotClaimedException(block + " was released from " + marker.claimant() + " at " + when
                    + ", so this stack (" + claimant + ") refuses to lease from it; an operator claims it again with the"
                    + " region command's 'claim' (docs/multi-region.md)", RETRY_AFTER_REFUSED_MILLIS, null);
        }
        return new BlockNotClaimedException("this lease table's marker says " + block + " is claimed for " + marker.claimant()
                + " (since " + when + "), not for this stack (" + claimant + "): two stacks share one lease table",
                RETRY_AFTER_REFUSED_MILLIS, null);
    }
}
