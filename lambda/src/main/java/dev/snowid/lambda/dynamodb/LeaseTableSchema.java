package dev.snowid.lambda.dynamodb;

import java.util.List;

/**
 * The lease table's names, defined once. {@code infra/template.yaml} is checked against these,
 * so a change here that the template does not follow fails the build.
 */
public final class LeaseTableSchema {

    /** Partition key (number): datacenter * 32 + machine. */
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

    /**
     * The DynamoDB API actions the store calls: the function's IAM policy grants exactly these
     * ({@code GetItem}: the claim marker of the stack's block, {@code LeaseTableMarkers}).
     */
    public static final List<String> ACTIONS_USED = List.of("dynamodb:UpdateItem", "dynamodb:Scan", "dynamodb:GetItem");

    private LeaseTableSchema() {
    }
}
