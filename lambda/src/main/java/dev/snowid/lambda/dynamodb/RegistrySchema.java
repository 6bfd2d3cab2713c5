package dev.snowid.lambda.dynamodb;

import java.util.List;

/**
 * The claim registry's names, defined once: one item per block ({@code dev.snowid.region.Block}).
 * {@code infra/registry.yaml} and the template's registry policy are checked against these.
 */
public final class RegistrySchema {

    /** Partition key (number): the block, 0 to 7. */
    public static final String BLOCK = "block";
    /** The claim in force: its region; absent while the block is free. */
    public static final String REGION = "region";
    /** The claim in force: its stack. */
    public static final String STACK = "stack";
    /** The claim in force: unix ms it was made (for people). */
    public static final String CLAIMED_AT = "claimedAt";
    /** The claim in force: its random id, which the claiming table's marker records too. */
    public static final String CLAIM_ID = "claimId";
    /** The claim in force: the identity of the lease table it was made from (ARN and creation time). */
    public static final String TABLE = "table";
    /** Unix ms where the claim in force started (or the next will): the highest lease expiry of every released claim. */
    public static final String FLOOR = "floor";
    /** The released claims, oldest first: maps of region, stack, claimedAt, claimId, table, from and until. */
    public static final String HISTORY = "history";
    /** A released claim: the first ms of its IDs. */
    public static final String FROM = "from";
    /** A released claim: the first ms after its IDs, the highest lease expiry its region's table held. */
    public static final String UNTIL = "until";

    /** The DynamoDB API actions a regional function calls on the registry: its policy grants exactly these, on the registry only. */
    public static final List<String> ACTIONS_USED = List.of("dynamodb:UpdateItem", "dynamodb:Scan");

    private RegistrySchema() {
    }
}
