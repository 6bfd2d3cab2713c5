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
     * The release rule: the expiry a release writes, {@code min(expiresAt, max(floor, lastIssued + 1))},
     * or the floor when nothing was issued ({@code lastIssuedMillis} 0). The slot is free at
     * once, its next holder's floor lies after every ID issued under this window, and the expiry
     * never grows. Every lease store writes exactly this (the DynamoDB store in one conditional
     * write per case, the test fake by calling this method; a shared contract test pins both).
     *
     * @param lastIssuedMillis unix ms of the last ID issued under this window, 0 if none
     * @throws IllegalArgumentException when {@code lastIssuedMillis} is negative
     */
    public long expiryOnRelease(long lastIssuedMillis) {
        if (lastIssuedMillis < 0) {
            throw new IllegalArgumentException("last issued ms must be 0 (nothing issued) or a unix ms, was " + lastIssuedMillis);
        }
        if (lastIssuedMillis == 0) {
            return floor;
        }
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
