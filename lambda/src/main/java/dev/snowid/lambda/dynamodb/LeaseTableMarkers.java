package dev.snowid.lambda.dynamodb;

import static dev.snowid.lambda.dynamodb.LeaseItems.number;
import static dev.snowid.lambda.dynamodb.LeaseItems.string;

import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.Claimant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The claim markers in the lease table: one item per block, keyed {@code -1 - block} below every
 * slot's key, so no slot Scan lists it (the Scans keep keys 0 to 1023 with an owner). Read with a
 * consistent {@code GetItem}, written with conditional {@code UpdateItem}s; the table's identity,
 * which binds a claim to it, comes from one {@code DescribeTable}.
 */
final class LeaseTableMarkers implements ClaimMarkers {

    /** The marker's attributes. */
    static final String REGION = "region";
    static final String STACK = "stack";
    /** {@code claimed} or {@code released}. */
    static final String STATE = "state";
    /** Unix ms where the confirmed claim's IDs start. */
    static final String FLOOR = LeaseTableSchema.FLOOR;
    /** Unix ms of the last change, for people. */
    static final String AT = "at";
    /** After a release: the owner token of the leases that retired the block's slots. */
    static final String RETIRED_BY = "retiredBy";
    /** The registry's id of the claim the marker records (RegistrySchema.CLAIM_ID). */
    static final String CLAIM_ID = RegistrySchema.CLAIM_ID;

    private static final Map<String, String> NAMES = Map.of("#slot", LeaseTableSchema.SLOT, "#region", REGION, "#stack", STACK,
            "#state", STATE, "#floor", FLOOR, "#at", AT, "#retiredBy", RETIRED_BY, "#claimId", CLAIM_ID);
    /** No marker, or the claimant's claimed one from before claims had ids (bound to the id now). */
    private static final String ABSENT_OR_WITHOUT_ID = "attribute_not_exists(#slot) OR (#state = :claimed AND #region = :region"
            + " AND #stack = :stack AND attribute_not_exists(#claimId))";
    private static final String ABSENT_OR_OURS = "attribute_not_exists(#slot) OR (#region = :region AND #stack = :stack)";
    private static final String CLAIMED = "SET #region = :region, #stack = :stack, #state = :claimed, #floor = :floor, #at = :now,"
            + " #claimId = :claimId REMOVE #retiredBy";
    private static final String RELEASED = "SET #region = :region, #stack = :stack, #state = :released, #at = :now,"
            + " #retiredBy = if_not_exists(#retiredBy, :token), #floor = if_not_exists(#floor, :zero)";

    private final DynamoDbClient client;
    private final String table;
    private final LeaseTableCalls calls;
    private volatile String identity;

    LeaseTableMarkers(DynamoDbClient client, String table, LeaseTableCalls calls) {
        this.client = client;
        this.table = table;
        this.calls = calls;
    }

    /** The marker item's key: below every slot's. */
    static long key(Block block) {
        return LeaseTableSchema.markerKey(block.index());
    }

    /**
     * The table's ARN and creation time, read once ({@code DescribeTable}): a copy, a restore or a
     * table recreated under the name has another creation time or ARN.
     */
    @Override
    public String table() {
        String known = identity;
        if (known == null) {
            String action = "describe the lease table";
            var deadline = calls.startOperation();
            TableDescription description = calls.call(action, () -> client.describeTable(d -> d.tableName(table)
                    .overrideConfiguration(o -> calls.timeouts(o, action, deadline)))).table();
            known = description.tableArn() + "@" + description.creationDateTime().toEpochMilli();
            identity = known;
        }
        return known;
    }

    @Override
    public Optional<ClaimMarker> read(Block block) {
        String action = "read the claim marker of " + block;
        var deadline = calls.startOperation();
        GetItemRequest get = GetItemRequest.builder().tableName(table).key(Map.of(LeaseTableSchema.SLOT, number(key(block))))
                .consistentRead(true).overrideConfiguration(o -> calls.timeouts(o, action, deadline)).build();
        var answer = calls.call(action, () -> client.getItem(get));
        return answer.hasItem() && !answer.item().isEmpty() ? Optional.of(markerOf(block, answer.item())) : Optional.empty();
    }

    @Override
    public ClaimMarker markClaimed(Block block, Claimant claimant, String claimId, long floor, long now, boolean replacingRelease) {
        Map<String, AttributeValue> values = values(claimant, now);
        values.put(":claimed", string("claimed"));
        values.put(":floor", number(floor));
        values.put(":claimId", string(claimId));
        try {
            return markerOf(block, update("record the claim of " + block, block,
                    replacingRelease ? ABSENT_OR_OURS : ABSENT_OR_WITHOUT_ID, CLAIMED, values));
        } catch (ConditionalCheckFailedException there) {
            return read(block).orElseThrow(() -> new IllegalStateException("the claim marker of " + block + " changed while written"));
        }
    }

    @Override
    public ClaimMarker markReleased(Block block, Claimant claimant, String retiredBy, long now) {
        Map<String, AttributeValue> values = values(claimant, now);
        values.put(":released", string("released"));
        values.put(":token", string(retiredBy));
        values.put(":zero", number(0));
        try {
            return markerOf(block, update("record the release of " + block, block, ABSENT_OR_OURS, RELEASED, values));
        } catch (ConditionalCheckFailedException another) {
            throw new BlockClaimedException("this lease table's marker of " + block + " names " + read(block).map(ClaimMarker::claimant)
                    .map(Object::toString).orElse("another claimant") + ", not " + claimant, null);
        }
    }

    private static Map<String, AttributeValue> values(Claimant claimant, long now) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":region", string(claimant.region()));
        values.put(":stack", string(claimant.stack()));
        values.put(":now", number(now));
        return values;
    }

    private Map<String, AttributeValue> update(String action, Block block, String condition, String update,
            Map<String, AttributeValue> values) {
        var deadline = calls.startOperation();
        Map<String, String> names = new HashMap<>();
        NAMES.forEach((placeholder, name) -> {
            if (condition.contains(placeholder) || update.contains(placeholder)) {
                names.put(placeholder, name);
            }
        });
        UpdateItemRequest request = UpdateItemRequest.builder().tableName(table).key(Map.of(LeaseTableSchema.SLOT, number(key(block))))
                .conditionExpression(condition).updateExpression(update).expressionAttributeNames(names)
                .expressionAttributeValues(values).returnValues(ReturnValue.ALL_NEW)
                .overrideConfiguration(o -> calls.timeouts(o, action, deadline)).build();
        return calls.call(action, () -> client.updateItem(request)).attributes();
    }

    private static ClaimMarker markerOf(Block block, Map<String, AttributeValue> item) {
        String state = text(item, STATE);
        AttributeValue retiredBy = item.get(RETIRED_BY);
        AttributeValue claimId = item.get(CLAIM_ID);
        return new ClaimMarker(block, Claimant.of(text(item, REGION), text(item, STACK)),
                ClaimMarker.State.valueOf(state.toUpperCase(Locale.ROOT)), LeaseItems.numberOf(item, FLOOR),
                LeaseItems.numberOf(item, AT), retiredBy == null ? null : retiredBy.s(), claimId == null ? null : claimId.s());
    }

    private static String text(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null || value.s() == null) {
            throw new IllegalStateException("the claim marker item " + item.get(LeaseTableSchema.SLOT) + " has no text '" + name
                    + "'; fix or delete that item");
        }
        return value.s();
    }
}
