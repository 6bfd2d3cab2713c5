package dev.snowid;

/**
 * The time range {@code [floor, expiresAt)}, in unix ms, in which a holder may issue IDs from
 * its slot. A new holder's floor is the previous holder's expiry, so the IDs of two holders of
 * one slot fall in disjoint time ranges whatever their clocks say.
 */
public final class LeaseWindow {

    /** For a node assigned by configuration, not leased: the operator vouches it is unique. */
    public static final LeaseWindow UNBOUNDED = new LeaseWindow(0, Long.MAX_VALUE);

    private final long floor;
    private final long expiresAt;

    private LeaseWindow(long floor, long expiresAt) {
        this.floor = floor;
        this.expiresAt = expiresAt;
    }

    public static LeaseWindow of(long floor, long expiresAt) {
        if (floor < 0 || expiresAt <= floor) {
            throw new IllegalArgumentException("lease window [" + floor + ", " + expiresAt
                    + ") is empty or negative: floor must be >= 0 and expiresAt > floor (unix ms)");
        }
        return new LeaseWindow(floor, expiresAt);
    }

    /** The first unix ms an ID may carry. */
    public long floor() {
        return floor;
    }

    /** The first unix ms an ID may no longer carry. */
    public long expiresAt() {
        return expiresAt;
    }

    public boolean contains(long unixMillis) {
        return unixMillis >= floor && unixMillis < expiresAt;
    }

    public long remainingMillis(long now) {
        return Math.max(0, expiresAt - now);
    }

    /** The same lease held longer: the floor stays, the expiry may only grow. */
    public LeaseWindow extendedTo(long newExpiresAt) {
        if (newExpiresAt < expiresAt) {
            throw new IllegalArgumentException("a renewal may not shorten the lease: " + newExpiresAt + " < " + expiresAt);
        }
        return new LeaseWindow(floor, newExpiresAt);
    }

    /**
     * The expiry to write on release, so that the slot is free at once and its next holder
     * starts after the last ID issued; {@code lastIssuedMillis} is 0 when nothing was issued.
     */
    public long expiryOnRelease(long lastIssuedMillis) {
        // Clamped: Long.MAX_VALUE + 1 would wrap below the floor and hand out the issued range again.
        long next = lastIssuedMillis == Long.MAX_VALUE ? Long.MAX_VALUE : lastIssuedMillis + 1;
        return Math.min(expiresAt, Math.max(floor, next));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LeaseWindow
                && ((LeaseWindow) other).floor == floor
                && ((LeaseWindow) other).expiresAt == expiresAt;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(floor) * 31 + Long.hashCode(expiresAt);
    }

    @Override
    public String toString() {
        return "[" + floor + ", " + expiresAt + ")";
    }
}
