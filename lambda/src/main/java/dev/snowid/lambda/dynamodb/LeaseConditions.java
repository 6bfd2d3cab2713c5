package dev.snowid.lambda.dynamodb;

import java.util.HashMap;
import java.util.Map;

/**
 * The lease table's conditions and update expressions, by name: what each conditional write
 * requires of the item, said once (as the DynamoDB lock client names its conditions). Attribute
 * names are {@code #placeholders} ({@code owner} and {@code ttl} are reserved words); the values
 * ({@code :owner}, {@code :fence}, …) are the request's.
 */
final class LeaseConditions {

    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("#slot", LeaseTableSchema.SLOT), Map.entry("#owner", LeaseTableSchema.OWNER),
            Map.entry("#fence", LeaseTableSchema.FENCE), Map.entry("#expiresAt", LeaseTableSchema.EXPIRES_AT),
            Map.entry("#floor", LeaseTableSchema.FLOOR), Map.entry("#ttl", LeaseTableSchema.TTL),
            Map.entry("#holder", LeaseTableSchema.HOLDER), Map.entry("#request", LeaseTableSchema.REQUEST),
            Map.entry("#releasedBy", LeaseTableSchema.RELEASED_BY), Map.entry("#boundTo", LeaseTableSchema.BOUND_TO),
            Map.entry("#claimOwner", LeaseTableSchema.CLAIM_OWNER), Map.entry("#claimSlot", LeaseTableSchema.CLAIM_SLOT));

    private LeaseConditions() {
    }

    /** The attribute names of the placeholders {@code expressions} use, and no others: DynamoDB rejects an unused one. */
    static Map<String, String> placeholders(String... expressions) {
        Map<String, String> names = new HashMap<>();
        NAMES.forEach((placeholder, name) -> {
            for (String expression : expressions) {
                if (expression.contains(placeholder)) {
                    names.put(placeholder, name);
                }
            }
        });
        return names;
    }

    // What a write requires of the item.

    /** The slot is free: never held, or its expiry passed (a released slot's expiry is in the past). */
    static final String SLOT_FREE = "attribute_not_exists(#slot) OR #expiresAt < :now";
    /**
     * The slot is free whatever the caller's clock says: never held, or released (only a release
     * removes the owner) and its expiry passed. A live lease always has an owner.
     */
    static final String SLOT_UNHELD = "attribute_not_exists(#slot) OR (attribute_not_exists(#owner) AND #expiresAt < :now)";
    /** The item carries this owner token (128 random bits: then the lease is ours). */
    static final String OWNED_BY = "#owner = :owner";
    /** Held by this owner under this fence. */
    static final String HELD_BY = "#owner = :owner AND #fence = :fence";
    /** Held by this owner and fence, and the new expiry is not earlier than the stored one. */
    static final String HELD_BY_AND_NOT_SHORTENED = HELD_BY + " AND #expiresAt <= :expiresAt";
    /** Held, and the release's next ms lies inside the window: the expiry becomes that ms. */
    static final String HELD_BY_NEXT_IN_WINDOW = HELD_BY + " AND #floor <= :next AND #expiresAt >= :next";
    /** Held, and the release's next ms lies below the floor: nothing was issued there, the floor stays. */
    static final String HELD_BY_NEXT_BELOW_FLOOR = HELD_BY + " AND #floor > :next";
    /** Held, and the release's next ms lies past the expiry: the expiry never grows on release. */
    static final String HELD_BY_NEXT_PAST_EXPIRY = HELD_BY + " AND #expiresAt < :next";
    /**
     * Released under this fence by this owner: only a release removes the owner and keeps the
     * fence (every grant bumps it), and it records who released.
     */
    static final String RELEASED_BY = "attribute_not_exists(#owner) AND #fence = :fence AND #releasedBy = :owner";
    /** A request's claim as read: this id, the read owner token, no grant recorded. */
    static final String CLAIMED_WITHOUT_GRANT = "#request = :request AND #claimOwner = :readOwner AND attribute_not_exists(#claimSlot)";
    /** A request's claim as read: this id, the read owner token, the read grant recorded. */
    static final String CLAIMED_WITH_GRANT = "#request = :request AND #claimOwner = :readOwner AND #claimSlot = :readSlot";
    /** A request's claim records exactly this grant. */
    static final String RECORDS_GRANT = "#request = :request AND #claimOwner = :owner AND #claimSlot = :slot";
    /** The Scans' filter: items that are held (or were, and their expiry says until when). */
    static final String HAS_OWNER = "attribute_exists(#owner)";

    // What a write does.

    /** A grant. SET reads the item as it was: the floor gets the previous holder's expiry, the fence goes up by one. */
    static final String GRANT = "SET #owner = :owner, #holder = :holder, #expiresAt = :expiresAt, #ttl = :ttl,"
            + " #fence = if_not_exists(#fence, :zero) + :one, #floor = if_not_exists(#expiresAt, :zero)"
            + " REMOVE #releasedBy, #request";
    /** A grant that records the acquisition's request id (the previous holder's, if any, goes). */
    static final String GRANT_FOR_REQUEST = "SET #owner = :owner, #holder = :holder, #expiresAt = :expiresAt, #ttl = :ttl,"
            + " #fence = if_not_exists(#fence, :zero) + :one, #floor = if_not_exists(#expiresAt, :zero), #request = :request"
            + " REMOVE #releasedBy";
    /** A renewal: the new expiry, and the TTL that trails it; the lease is no longer as granted, so its request record goes. */
    static final String EXTEND = "SET #expiresAt = :expiresAt, #ttl = :ttl REMOVE #request";
    /** A release that ends the window at the floor. */
    static final String RELEASE_TO_FLOOR = "SET #expiresAt = #floor, #releasedBy = :owner REMOVE #owner, #request";
    /** A release that ends the window just after the last ID issued. */
    static final String RELEASE_TO_NEXT = "SET #expiresAt = :next, #releasedBy = :owner REMOVE #owner, #request";
    /** A release that keeps the expiry. */
    static final String RELEASE_KEEPING_EXPIRY = "SET #releasedBy = :owner REMOVE #owner, #request";
    /**
     * Claims a request id, unless it was claimed before: then it changes nothing. Either way the
     * answer (ALL_NEW) is the claim as stored, so one write both claims and looks up.
     */
    static final String CLAIM = "SET #request = if_not_exists(#request, :request), #boundTo = if_not_exists(#boundTo, :boundTo),"
            + " #claimOwner = if_not_exists(#claimOwner, :owner), #ttl = if_not_exists(#ttl, :ttl)";
    /** Records a grant on a request's claim. */
    static final String RECORD_GRANT = "SET #claimOwner = :owner, #claimSlot = :slot, #ttl = :ttl";
    /** Changes nothing, on a request's claim. */
    static final String TOUCH_CLAIM = "SET #claimOwner = #claimOwner";
    /** Changes nothing: a write whose only point is its condition, returning the item as stored. */
    static final String TOUCH_HOLDER = "SET #holder = #holder";
    /** Changes nothing, for an item that has no holder to touch (a released one). */
    static final String TOUCH_FENCE = "SET #fence = #fence";
}
