package dev.snowid.lambda.dynamodb;

import static dev.snowid.lambda.dynamodb.LeaseItems.claimTtlFor;
import static dev.snowid.lambda.dynamodb.LeaseItems.leaseFrom;
import static dev.snowid.lambda.dynamodb.LeaseItems.number;
import static dev.snowid.lambda.dynamodb.LeaseItems.numberOf;
import static dev.snowid.lambda.dynamodb.LeaseItems.string;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.BOUND_TO;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.CLAIM_OWNER;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.CLAIM_SLOT;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.EXPIRES_AT;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.OWNER;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.REQUEST;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.SLOT;

import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.RequestClaim;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The claims of acquisition ids on DynamoDB ({@link RequestClaim}; the protocol: {@code
 * docs/protocol.md}, "Request ids"): one item per id in the lease table, under a key no slot has
 * ({@link LeaseTableSchema#claimKey}). Every call is keyed: one UpdateItem claims and looks up at
 * once, one conditional UpdateItem records a grant, one consistent GetItem of the slot's item
 * answers a grant again. None scans.
 */
final class RequestClaims {

    private final String table;
    private final LeaseTableCalls calls;

    RequestClaims(String table, LeaseTableCalls calls) {
        this.table = table;
        this.calls = calls;
    }

    /** Claims the id unless it was claimed before; the claim as stored either way (one write, ALL_NEW). */
    RequestClaim claim(String requestId, String holder, String owner, long until) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":request", string(requestId));
        values.put(":boundTo", string(holder));
        values.put(":owner", string(owner));
        values.put(":ttl", number(claimTtlFor(until)));
        UpdateItemRequest claim = LeaseItems.update(table, LeaseTableSchema.claimKey(requestId), null, LeaseConditions.CLAIM, values,
                ReturnValue.ALL_NEW);
        return claimFrom(calls.updateItem("claim an acquisition id", calls.startOperation(), claim).attributes());
    }

    /**
     * Records the grant if the claim is still as read. A condition that fails after the SDK
     * retried the write may be our own first attempt's doing: a write that changes nothing,
     * conditional on the claim recording exactly this grant, tells.
     */
    boolean recordGrant(RequestClaim read, Lease lease) {
        Map<String, AttributeValue> values = grant(read.requestId(), lease);
        values.put(":readOwner", string(read.owner()));
        read.slot().ifPresent(slot -> values.put(":readSlot", number(slot.index())));
        values.put(":ttl", number(claimTtlFor(lease.window().expiresAt())));
        String key = LeaseTableSchema.claimKey(read.requestId());
        String asRead = read.slot().isPresent() ? LeaseConditions.CLAIMED_WITH_GRANT : LeaseConditions.CLAIMED_WITHOUT_GRANT;
        OperationDeadline deadline = calls.startOperation();
        String action = "record the grant of an acquisition id";
        try {
            calls.updateItem(action, deadline, LeaseItems.update(table, key, asRead, LeaseConditions.RECORD_GRANT, values, ReturnValue.NONE));
            return true;
        } catch (ConditionalCheckFailedException changed) {
            if (!LeaseTableCalls.wasRetried(changed)) {
                return false;
            }
        }
        try {
            calls.updateItem(action, deadline, LeaseItems.update(table, key, LeaseConditions.RECORDS_GRANT, LeaseConditions.TOUCH_CLAIM,
                    grant(read.requestId(), lease), ReturnValue.NONE));
            return true;
        } catch (ConditionalCheckFailedException notOurs) {
            return false;
        }
    }

    private static Map<String, AttributeValue> grant(String requestId, Lease lease) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":request", string(requestId));
        values.put(":owner", string(lease.owner()));
        values.put(":slot", number(lease.slot().index()));
        return values;
    }

    /** One consistent GetItem of the recorded grant's slot: the lease, if the item still carries the claim's owner and id. */
    Optional<Lease> grantedFor(RequestClaim claim, long now) {
        if (!claim.slot().isPresent()) {
            return Optional.empty();
        }
        Slot slot = claim.slot().get();
        String projection = "#slot, #owner, #fence, #floor, #expiresAt, #request";
        GetItemRequest read = GetItemRequest.builder()
                .tableName(table)
                .key(Map.of(SLOT, number(slot.index())))
                .consistentRead(true)
                .projectionExpression(projection)
                .expressionAttributeNames(LeaseConditions.placeholders(projection))
                .build();
        Map<String, AttributeValue> item = calls.getItem("read the grant of an acquisition id", read).item();
        if (item == null || !claim.owner().equals(text(item, OWNER)) || !claim.requestId().equals(text(item, REQUEST))
                || numberOf(item, EXPIRES_AT) < now) {
            return Optional.empty();
        }
        return Optional.of(leaseFrom(slot, claim.owner(), item));
    }

    private static RequestClaim claimFrom(Map<String, AttributeValue> item) {
        String requestId = text(item, REQUEST);
        String boundTo = text(item, BOUND_TO);
        String owner = text(item, CLAIM_OWNER);
        if (requestId == null || boundTo == null || owner == null) {
            // Never the item itself: it carries an owner token.
            throw new IllegalStateException("a claim item of the lease table lacks '" + REQUEST + "', '" + BOUND_TO + "' or '"
                    + CLAIM_OWNER + "'; fix or delete that item");
        }
        AttributeValue slot = item.get(CLAIM_SLOT);
        return new RequestClaim(requestId, boundTo, owner, slot == null ? null : Slot.ofIndex((int) numberOf(item, CLAIM_SLOT)));
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item == null ? null : item.get(name);
        return value == null ? null : value.s();
    }
}
