package dev.snowid.lambda.dynamodb;

import static dev.snowid.lambda.dynamodb.LeaseTableSchema.EXPIRES_AT;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.FENCE;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.FLOOR;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Lease items and their attribute values: what goes into a write and what is read back. */
final class LeaseItems {

    /** {@code ttl} trails {@code expiresAt} by days, so that {@code floor} outlives any plausible pause. */
    static final long TTL_AFTER_EXPIRY_SECONDS = TimeUnit.DAYS.toSeconds(7);
    /**
     * A claim's {@code ttl} trails the end of the lease it is for by an hour: it is needed only
     * while that lease can be answered again, and Scans read it (and skip it) until it is deleted.
     */
    static final long CLAIM_TTL_AFTER_LEASE_SECONDS = TimeUnit.HOURS.toSeconds(1);
    private static final int MAX_HOLDER_LENGTH = 256;

    private LeaseItems() {
    }

    static Map<String, AttributeValue> ownerAndFence(String owner, long fence) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":owner", string(owner == null || owner.isEmpty() ? "-" : owner));
        values.put(":fence", number(fence));
        return values;
    }

    static Lease leaseFrom(Slot slot, String owner, Map<String, AttributeValue> item) {
        return new Lease(slot, owner, numberOf(item, FENCE),
                LeaseWindow.of(numberOf(item, FLOOR), numberOf(item, EXPIRES_AT)));
    }

    static long ttlFor(long expiresAtMillis) {
        return expiresAtMillis / 1000 + TTL_AFTER_EXPIRY_SECONDS;
    }

    static long claimTtlFor(long leaseEndMillis) {
        return leaseEndMillis / 1000 + CLAIM_TTL_AFTER_LEASE_SECONDS;
    }

    /**
     * One UpdateItem on the item keyed {@code key} (a slot's index, or a claim's key), naming only
     * the attributes its expressions use; no condition when {@code condition} is null.
     */
    static UpdateItemRequest update(String table, String key, String condition, String update, Map<String, AttributeValue> values,
            ReturnValue returnValues) {
        UpdateItemRequest.Builder request = UpdateItemRequest.builder()
                .tableName(table)
                .key(Map.of(LeaseTableSchema.SLOT, AttributeValue.fromN(key)))
                .updateExpression(update)
                .expressionAttributeValues(values)
                .returnValues(returnValues);
        if (condition != null) {
            request.conditionExpression(condition).expressionAttributeNames(LeaseConditions.placeholders(condition, update));
        } else {
            request.expressionAttributeNames(LeaseConditions.placeholders(update));
        }
        return request.build();
    }

    static String holderText(String holder) {
        if (holder == null || holder.isBlank()) {
            return "unknown";
        }
        return holder.length() > MAX_HOLDER_LENGTH ? holder.substring(0, MAX_HOLDER_LENGTH) : holder;
    }

    static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static AttributeValue string(String value) {
        return AttributeValue.fromS(value);
    }

    static long numberOf(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || value.n() == null) {
            // Named by slot and attribute, never by the item: it carries the owner token.
            throw new IllegalStateException("the lease item of " + slotOf(item) + " has no number '" + name + "'"
                    + (value == null ? "" : " (it holds another type)") + "; fix or delete that item");
        }
        return Long.parseLong(value.n());
    }

    private static String slotOf(Map<String, AttributeValue> item) {
        AttributeValue slot = item.get(LeaseTableSchema.SLOT);
        return slot == null || slot.n() == null ? "an unknown slot" : "slot " + slot.n();
    }
}
