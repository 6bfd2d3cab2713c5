package dev.snowid.local;

import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The lease rows of a table as seen at one moment: each slot's fence, and the latest expiry.
 *
 * <p>The protocol never deletes a row and never lowers a fence (a release keeps both), so a later
 * census must hold every row of an earlier one with at least its fence. One that does not comes
 * from a table that lost rows (an engine that restarted empty, a hand edit): on such a table a
 * fresh acquisition would get floor 0 while the old holder may still issue in its window.
 */
final class LeaseCensus {

    static final LeaseCensus EMPTY = new LeaseCensus(Map.of(), 0);

    private final Map<Long, Long> fenceBySlot;
    private final long latestExpiry;

    private LeaseCensus(Map<Long, Long> fenceBySlot, long latestExpiry) {
        this.fenceBySlot = Collections.unmodifiableMap(new TreeMap<>(fenceBySlot));
        this.latestExpiry = latestExpiry;
    }

    /** Reads every lease row (a consistent Scan, all pages); the claims of acquisition ids are not lease rows. */
    static LeaseCensus take(DynamoDbClient client, String table) {
        Map<Long, Long> fences = new TreeMap<>();
        long latestExpiry = 0;
        Map<String, AttributeValue> start = null;
        do {
            ScanRequest.Builder scan = ScanRequest.builder().tableName(table).consistentRead(true)
                    .projectionExpression("#s, #f, #e")
                    .expressionAttributeNames(Map.of("#s", LeaseTableSchema.SLOT, "#f", LeaseTableSchema.FENCE,
                            "#e", LeaseTableSchema.EXPIRES_AT));
            if (start != null) {
                scan.exclusiveStartKey(start);
            }
            ScanResponse page = client.scan(scan.build());
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValue key = item.get(LeaseTableSchema.SLOT);
                OptionalInt slot = key == null ? OptionalInt.empty() : LeaseTableSchema.slotIndexOf(key.n());
                if (slot.isPresent()) { // else an acquisition id's claim: not a lease row
                    fences.put((long) slot.getAsInt(), number(item, LeaseTableSchema.FENCE));
                    latestExpiry = Math.max(latestExpiry, number(item, LeaseTableSchema.EXPIRES_AT));
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return new LeaseCensus(fences, latestExpiry);
    }

    /**
     * What this (later) census lacks of an earlier one: one line per slot whose row is gone or
     * whose fence went back. Empty when nothing was lost.
     */
    List<String> lossesSince(LeaseCensus earlier) {
        List<String> losses = new ArrayList<>();
        earlier.fenceBySlot.forEach((slot, fence) -> {
            Long now = fenceBySlot.get(slot);
            if (now == null) {
                losses.add("slot " + slot + " (fence " + fence + ") is gone");
            } else if (now < fence) {
                losses.add("slot " + slot + "'s fence went back from " + fence + " to " + now);
            }
        });
        return losses;
    }

    /** The latest {@code expiresAt} of any row, unix ms (0 for no rows). */
    long latestExpiry() {
        return latestExpiry;
    }

    int rows() {
        return fenceBySlot.size();
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }

    @Override
    public String toString() {
        return fenceBySlot.size() + " lease rows, fences " + fenceBySlot;
    }
}
