package dev.snowid.lambda.dynamodb;

import java.util.List;

/**
 * The cases of the release rule, {@link dev.snowid.LeaseWindow#expiryOnRelease(long)}:
 * {@code expiresAt := min(expiresAt, max(floor, lastIssued + 1))}, or the floor when nothing was
 * issued. DynamoDB's update expressions have no min or max, so each case is a conditional write,
 * and the conditions exclude one another: at most one case applies to an item.
 */
enum ReleaseCase {

    /** Nothing issued: the next holder may start where this one could have. */
    NOTHING_ISSUED(LeaseConditions.HELD_BY, LeaseConditions.RELEASE_TO_FLOOR),
    /** The ms after the last ID lies inside the window: the expiry becomes that ms. */
    NEXT_IN_WINDOW(LeaseConditions.HELD_BY_NEXT_IN_WINDOW, LeaseConditions.RELEASE_TO_NEXT),
    /** Below the floor (nothing can have been issued there): the floor stays the expiry's bound. */
    NEXT_BELOW_FLOOR(LeaseConditions.HELD_BY_NEXT_BELOW_FLOOR, LeaseConditions.RELEASE_TO_FLOOR),
    /** At or past the expiry: the expiry never grows on release. */
    NEXT_PAST_EXPIRY(LeaseConditions.HELD_BY_NEXT_PAST_EXPIRY, LeaseConditions.RELEASE_KEEPING_EXPIRY);

    /** A holder that issued IDs issued them inside its window: the likeliest case goes first. */
    private static final List<ReleaseCase> AFTER_ISSUING = List.of(NEXT_IN_WINDOW, NEXT_BELOW_FLOOR, NEXT_PAST_EXPIRY);

    private final String condition;
    private final String update;

    ReleaseCase(String condition, String update) {
        this.condition = condition;
        this.update = update;
    }

    /** The cases to try, in order, for a release whose last ID was issued at {@code lastIssuedMillis} (0: none). */
    static List<ReleaseCase> forLastIssued(long lastIssuedMillis) {
        return lastIssuedMillis == 0 ? List.of(NOTHING_ISSUED) : AFTER_ISSUING;
    }

    /**
     * The {@code :next} value the conditions compare with: the ms after the last ID, clamped so
     * that a last ms of {@code Long.MAX_VALUE} does not wrap into "below the floor"; none when
     * nothing was issued.
     */
    static Long next(long lastIssuedMillis) {
        if (lastIssuedMillis == 0) {
            return null;
        }
        return lastIssuedMillis == Long.MAX_VALUE ? Long.MAX_VALUE : lastIssuedMillis + 1;
    }

    /** What the item must be for this case. */
    String condition() {
        return condition;
    }

    /** What this case writes. */
    String update() {
        return update;
    }
}
