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
    private final String claimId;
    private final String table;

    /** A claim made before claims had ids (or a test's): bound to no claim id and no lease table. */
    public Claim(Claimant claimant, long from, long until, long claimedAt) {
        this(claimant, from, until, claimedAt, null, null);
    }

    /**
     * @param claimId the random id drawn when the claim was made; null for a claim made before claims had ids
     * @param table   the identity of the one lease table the claim was made from ({@link ClaimMarkers#table()}); null with it
     */
    public Claim(Claimant claimant, long from, long until, long claimedAt, String claimId, String table) {
        if (claimant == null || from < 0 || until < from) {
            throw new IllegalArgumentException("a claim needs a claimant and 0 <= from <= until, was " + claimant + " [" + from + ", "
                    + until + ")");
        }
        this.claimant = claimant;
        this.from = from;
        this.until = until;
        this.claimedAt = claimedAt;
        this.claimId = claimId;
        this.table = table;
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

    /** The random id drawn when the claim was made: the lease table's marker carries it too. Null for a claim made before ids. */
    public String claimId() {
        return claimId;
    }

    /** The identity of the lease table the claim belongs to ({@link ClaimMarkers#table()}); null for a claim made before ids. */
    public String table() {
        return table;
    }

    /** Whether this claim belongs to {@code claimant}'s lease table {@code table}: what a copy or a recreated table is not. */
    public boolean heldBy(Claimant claimant, String table) {
        return this.claimant.equals(claimant) && table != null && table.equals(this.table);
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
        return claimant + " [" + from + ", " + (isOpen() ? "now" : Long.toString(until)) + ")"
                + (claimId == null ? "" : " claim " + claimId + " of table " + table);
    }
}
