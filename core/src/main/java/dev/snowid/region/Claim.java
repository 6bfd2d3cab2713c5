package dev.snowid.region;

/**
 * One claim of a block: who held it and the time range its IDs lie in, {@code [from, until)} in
 * unix ms. {@code from} is the highest lease expiry of every earlier claim of the block (0 for its
 * first), {@code until} the highest lease expiry this claim's region left when it was released
 * ({@link #OPEN} while it holds the block). The lease protocol keeps every ID of the claim inside
 * that range (docs/protocol.md, "Regions"), so an ID's block and time name the claim that issued it.
 */
public final class Claim {

    /** {@code until} of the claim in force: its IDs have no upper bound yet. */
    public static final long OPEN = Long.MAX_VALUE;

    private final Claimant claimant;
    private final long from;
    private final long until;
    private final long claimedAt;

    public Claim(Claimant claimant, long from, long until, long claimedAt) {
        if (claimant == null || from < 0 || until < from) {
            throw new IllegalArgumentException("a claim needs a claimant and 0 <= from <= until, was " + claimant + " [" + from + ", "
                    + until + ")");
        }
        this.claimant = claimant;
        this.from = from;
        this.until = until;
        this.claimedAt = claimedAt;
    }

    public Claimant claimant() {
        return claimant;
    }

    /** Unix ms: the first ms the claim's IDs may carry. */
    public long from() {
        return from;
    }

    /** Unix ms: the first ms the claim's IDs no longer carry; {@link #OPEN} while it is in force. */
    public long until() {
        return until;
    }

    /** Unix ms the claim was made (by the registry's writer's clock): for people only. */
    public long claimedAt() {
        return claimedAt;
    }

    public boolean isOpen() {
        return until == OPEN;
    }

    /** Whether an ID issued at {@code unixMillis} in the block came from this claim. */
    public boolean covers(long unixMillis) {
        return unixMillis >= from && unixMillis < until;
    }

    @Override
    public String toString() {
        return claimant + " [" + from + ", " + (isOpen() ? "now" : Long.toString(until)) + ")";
    }
}
