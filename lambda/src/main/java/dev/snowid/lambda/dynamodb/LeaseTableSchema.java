package dev.snowid.lambda.dynamodb;

import dev.snowid.Slot;
import dev.snowid.internal.HexToken;
import dev.snowid.internal.WholeNumber;
import java.math.BigInteger;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The lease table's names and keys, defined once. {@code infra/template.yaml} is checked against
 * these, so a change here that the template does not follow fails the build.
 *
 * <p>The table holds three kinds of item under its one key, {@link #SLOT}, each in its own range
 * of keys: a slot's (0 to 1023, the attributes from {@link #OWNER} to {@link #RELEASED_BY}); a
 * block's claim marker ({@link #markerKey}: -1 to -{@value #MARKER_KEYS}, {@code LeaseTableMarkers});
 * and an acquisition id's claim (below that, {@link #claimKey}: the attributes from
 * {@link #BOUND_TO} on, and {@link #TTL}). Whatever reads the table tells them apart by the key
 * alone ({@link #slotIndexOf}).
 */
public final class LeaseTableSchema {

    /** Partition key (number): datacenter * 32 + machine for a slot's item; {@link #claimKey} for a claim's. */
    public static final String SLOT = "slot";
    /** Random 128-bit token of the holder (hex); removed on release. */
    public static final String OWNER = "owner";
    /** Bumped on every acquisition. */
    public static final String FENCE = "fence";
    /** Unix ms; the slot is free for a caller whose clock reads a later ms. */
    public static final String EXPIRES_AT = "expiresAt";
    /** Unix ms; the first ms the holder may issue: the previous holder's expiry. */
    public static final String FLOOR = "floor";
    /** Unix seconds, for DynamoDB TTL clean-up only, days after expiresAt; never read for correctness. */
    public static final String TTL = "ttl";
    /** Who holds it: function/log stream, host, pid. */
    public static final String HOLDER = "holder";
    /**
     * The id of the acquisition that granted the lease (hex), until its first renewal or its
     * release: a retried acquisition with this id is answered with this lease again.
     */
    public static final String REQUEST = "request";
    /** After a release: the owner token that released it, so the same release repeated is recognised. */
    public static final String RELEASED_BY = "releasedBy";

    // A claim's item also has REQUEST (the whole id: its key holds 126 of the id's 128 bits) and TTL.

    /** A claim: the holder the id is bound to, exactly as the first acquisition with it named it. */
    public static final String BOUND_TO = "boundTo";
    /** A claim: the owner token of the attempt that holds it; its grant's, once recorded. */
    public static final String CLAIM_OWNER = "claimOwner";
    /** A claim: the slot of the recorded grant (number); absent while none is recorded. */
    public static final String CLAIM_SLOT = "claimSlot";

    /**
     * The DynamoDB API actions the store calls: the function's IAM policy grants exactly these
     * ({@code GetItem}: a request id's claim, and the claim marker of the stack's block; {@code DescribeTable}: the
     * table's identity, which a region's claim is bound to; both {@code LeaseTableMarkers}).
     */
    public static final List<String> ACTIONS_USED = List.of("dynamodb:UpdateItem", "dynamodb:Scan", "dynamodb:GetItem",
            "dynamodb:DescribeTable");

    /** How many keys below the slots' are kept for markers: -1 to -{@value}. */
    static final int MARKER_KEYS = 1024;

    private static final BigInteger BELOW_THE_MARKERS = BigInteger.valueOf(MARKER_KEYS + 1L);

    private LeaseTableSchema() {
    }

    /**
     * The key of {@code requestId}'s claim: minus {@value #MARKER_KEYS} plus one, minus the id's
     * first 126 bits, so from -2^126 - {@value #MARKER_KEYS} to -{@value #MARKER_KEYS} - 1: never a
     * slot's or a marker's key, and within the 38 digits a DynamoDB number holds exactly (all 128
     * bits would take 39). Two ids that differ only in their last two bits share a key;
     * the claim stores the whole id, and is refused to the other.
     *
     * @throws IllegalArgumentException when {@code requestId} is not 32 lower-case hex digits
     */
    public static String claimKey(String requestId) {
        if (!HexToken.isToken(requestId)) {
            throw new IllegalArgumentException("an acquisition id is " + HexToken.SHAPE);
        }
        return new BigInteger(requestId, 16).shiftRight(2).add(BELOW_THE_MARKERS).negate().toString();
    }

    /**
     * The key of the table's marker number {@code index} (a block's claim marker): -1 - {@code index}.
     *
     * @throws IllegalArgumentException outside 0 to {@value #MARKER_KEYS} - 1
     */
    static long markerKey(int index) {
        if (index < 0 || index >= MARKER_KEYS) {
            throw new IllegalArgumentException("marker " + index + " is outside 0 to " + (MARKER_KEYS - 1));
        }
        return -1L - index;
    }

    /**
     * The slot index of an item whose key (as DynamoDB writes the number) is a slot's, 0 to 1023;
     * empty for every other item (a claim's), which is never taken for a slot.
     */
    public static OptionalInt slotIndexOf(String key) {
        OptionalLong index = WholeNumber.parse(key);
        return index.isPresent() && index.getAsLong() < Slot.COUNT ? OptionalInt.of((int) index.getAsLong()) : OptionalInt.empty();
    }
}
