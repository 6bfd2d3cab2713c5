package dev.snowid.lambda.dynamodb;

import static dev.snowid.lambda.dynamodb.LeaseItems.number;
import static dev.snowid.lambda.dynamodb.LeaseItems.string;
import static dev.snowid.lambda.dynamodb.RegistrySchema.BLOCK;
import static dev.snowid.lambda.dynamodb.RegistrySchema.CLAIMED_AT;
import static dev.snowid.lambda.dynamodb.RegistrySchema.CLAIM_ID;
import static dev.snowid.lambda.dynamodb.RegistrySchema.FLOOR;
import static dev.snowid.lambda.dynamodb.RegistrySchema.FROM;
import static dev.snowid.lambda.dynamodb.RegistrySchema.HISTORY;
import static dev.snowid.lambda.dynamodb.RegistrySchema.REGION;
import static dev.snowid.lambda.dynamodb.RegistrySchema.STACK;
import static dev.snowid.lambda.dynamodb.RegistrySchema.TABLE;
import static dev.snowid.lambda.dynamodb.RegistrySchema.UNTIL;

import dev.snowid.WallClock;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.Claim;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The claim registry on a single-region DynamoDB table (never a global table: a conditional
 * write there is checked against one region's copy, and concurrent writes resolve last writer
 * wins). Each claim and release is one conditional {@code UpdateItem} on its block's item; the
 * whole registry is read with one consistent {@code Scan} of at most 8 items. Calls have the
 * lease table's time budget and failures ({@link LeaseTableCalls}).
 */
public final class DynamoDbClaimRegistry implements ClaimRegistry, AutoCloseable {

    private static final Map<String, String> NAMES = Map.of("#block", BLOCK, "#region", REGION, "#stack", STACK,
            "#claimedAt", CLAIMED_AT, "#floor", FLOOR, "#history", HISTORY, "#claimId", CLAIM_ID, "#table", TABLE);
    /** Free, or this very claim (a retried write), or the same claimant's claim from before claims had ids (bound now). */
    private static final String FREE_OR_THIS = "attribute_not_exists(#region) OR #claimId = :claimId"
            + " OR (#region = :region AND #stack = :stack AND attribute_not_exists(#claimId))";
    private static final String CLAIM = "SET #region = :region, #stack = :stack, #claimId = :claimId, #table = :table,"
            + " #claimedAt = if_not_exists(#claimedAt, :now), #floor = if_not_exists(#floor, :zero)";
    private static final String OURS_FROM = "#region = :region AND #stack = :stack AND #floor = :from";
    private static final String RELEASE = "SET #floor = :until, #history = list_append(if_not_exists(#history, :none), :ended)"
            + " REMOVE #region, #stack, #claimedAt, #claimId, #table";

    private final DynamoDbClient client;
    private final String table;
    private final String where;
    private final LeaseTableCalls calls;

    private DynamoDbClaimRegistry(DynamoDbClient client, String table, String tableSetting, StoreClockSkew skew,
            LeaseTableClient.Builder settings, String where) {
        this.client = client;
        this.table = table;
        this.where = where;
        this.calls = new LeaseTableCalls(client, this, table, tableSetting, where, skew, settings.maxAttempts(), settings.operationTimeout(),
                "claim registry table", "infra/registry.yaml creates it, in the registry's region");
    }

    /**
     * The registry {@code table} in {@code region} (null: the function's own), or on the engine at {@code endpoint}.
     *
     * @param tableSetting the setting that named the table, for error messages
     */
    public static DynamoDbClaimRegistry create(String table, String tableSetting, String region, Optional<URI> endpoint) {
        LeaseTableClient.Builder settings = LeaseTableClient.builder().endpoint(endpoint).region(region);
        return create(table, tableSetting, settings, region == null ? "" : " in " + region);
    }

    /** The registry with these client settings (tests adjust them). */
    public static DynamoDbClaimRegistry create(String table, String tableSetting, LeaseTableClient.Builder settings, String regionNote) {
        StoreClockSkew skew = new StoreClockSkew(WallClock.SYSTEM);
        String where = settings.endpoint().map(URI::toString).orElse("DynamoDB" + regionNote);
        return new DynamoDbClaimRegistry(settings.interceptor(skew).build(), table, tableSetting, skew, settings, where);
    }

    @Override
    public BlockClaims claim(Block block, Claimant claimant, String claimId, String table, long now) {
        Map<String, AttributeValue> values = claimantValues(claimant);
        values.put(":claimId", string(claimId));
        values.put(":table", string(table));
        values.put(":now", number(now));
        values.put(":zero", number(0));
        try {
            return claimsOf(block, updateItem("claim " + block, block, FREE_OR_THIS, CLAIM, values).attributes());
        } catch (ConditionalCheckFailedException taken) {
            BlockClaims claims = claims().get(block);
            Claim current = claims.current();
            throw new BlockClaimedException(block + " is claimed by " + (current == null ? "nobody now" : current)
                    + " in the claim registry, not free for " + claimant + " (table " + table + ")", claims);
        }
    }

    @Override
    public BlockClaims release(Block block, Claimant claimant, long until) {
        BlockClaims before = claims().get(block);
        Claim current = before.current();
        if (current == null || !current.claimant().equals(claimant)) {
            throw new BlockClaimedException(block + " is not claimed by " + claimant + " in the claim registry: "
                    + (current == null ? "it is free" : "it is claimed by " + current.claimant()), before);
        }
        if (until < current.from()) {
            throw new IllegalArgumentException("a claim cannot end (" + until + ") before it started (" + current.from() + ")");
        }
        Map<String, AttributeValue> ended = new HashMap<>();
        ended.put(REGION, string(claimant.region()));
        ended.put(STACK, string(claimant.stack()));
        ended.put(CLAIMED_AT, number(current.claimedAt()));
        if (current.claimId() != null) {
            ended.put(CLAIM_ID, string(current.claimId()));
            ended.put(TABLE, string(current.table()));
        }
        ended.put(FROM, number(current.from()));
        ended.put(UNTIL, number(until));
        Map<String, AttributeValue> values = claimantValues(claimant);
        values.put(":from", number(current.from()));
        values.put(":until", number(until));
        values.put(":none", AttributeValue.fromL(List.of()));
        values.put(":ended", AttributeValue.fromL(List.of(AttributeValue.fromM(ended))));
        String condition = OURS_FROM + " AND attribute_not_exists(#claimId)";
        if (current.claimId() != null) {
            values.put(":claimId", string(current.claimId()));
            condition = OURS_FROM + " AND #claimId = :claimId";
        }
        try {
            return claimsOf(block, updateItem("release " + block, block, condition, RELEASE, values).attributes());
        } catch (ConditionalCheckFailedException changed) {
            // The SDK may have retried a release that landed: then the last claim in the history is this one, ended here.
            BlockClaims after = claims().get(block);
            List<Claim> all = after.claims();
            Claim last = all.isEmpty() ? null : all.get(all.size() - 1);
            if (last != null && !last.isOpen() && last.claimant().equals(claimant) && last.until() == until) {
                return after;
            }
            throw new BlockClaimedException(block + " changed in the claim registry while " + claimant + " released it: " + after,
                    after);
        }
    }

    @Override
    public Map<Block, BlockClaims> claims() {
        Map<Block, BlockClaims> claims = new TreeMap<>();
        for (int i = 0; i < Block.COUNT; i++) {
            claims.put(Block.of(i), BlockClaims.unclaimed(Block.of(i)));
        }
        ScanRequest scan = ScanRequest.builder().tableName(table).consistentRead(true).build();
        String action = "read the claim registry";
        var deadline = calls.startOperation();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanRequest page = scan.toBuilder().exclusiveStartKey(from).overrideConfiguration(o -> calls.timeouts(o, action, deadline)).build();
            var answer = calls.call(action, () -> client.scan(page));
            for (Map<String, AttributeValue> item : answer.items()) {
                AttributeValue key = item.get(BLOCK);
                if (key != null && key.n() != null && key.n().matches("[0-7]")) {
                    Block block = Block.of(Integer.parseInt(key.n()));
                    claims.put(block, claimsOf(block, item));
                }
            }
            start = answer.hasLastEvaluatedKey() && !answer.lastEvaluatedKey().isEmpty() ? answer.lastEvaluatedKey() : null;
        } while (start != null);
        return claims;
    }

    /** The block's claims as its item holds them: the history, then the claim in force. */
    static BlockClaims claimsOf(Block block, Map<String, AttributeValue> item) {
        List<Claim> claims = new ArrayList<>();
        AttributeValue history = item.get(HISTORY);
        if (history != null && history.hasL()) {
            for (AttributeValue entry : history.l()) {
                Map<String, AttributeValue> ended = entry.m();
                claims.add(new Claim(Claimant.of(ended.get(REGION).s(), ended.get(STACK).s()), numberOr(ended, FROM, 0),
                        numberOr(ended, UNTIL, 0), numberOr(ended, CLAIMED_AT, 0), textOr(ended, CLAIM_ID), textOr(ended, TABLE)));
            }
        }
        long floor = numberOr(item, FLOOR, 0);
        AttributeValue region = item.get(REGION);
        AttributeValue stack = item.get(STACK);
        if (region != null && stack != null && region.s() != null && stack.s() != null) {
            claims.add(new Claim(Claimant.of(region.s(), stack.s()), floor, Claim.OPEN, numberOr(item, CLAIMED_AT, 0),
                    textOr(item, CLAIM_ID), textOr(item, TABLE)));
        }
        return new BlockClaims(block, claims, floor);
    }

    private static long numberOr(Map<String, AttributeValue> item, String name, long absent) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? absent : Long.parseLong(value.n());
    }

    private static String textOr(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }

    private static Map<String, AttributeValue> claimantValues(Claimant claimant) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":region", string(claimant.region()));
        values.put(":stack", string(claimant.stack()));
        return values;
    }

    private software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse updateItem(String action, Block block, String condition,
            String update, Map<String, AttributeValue> values) {
        var deadline = calls.startOperation();
        Map<String, String> names = new HashMap<>();
        NAMES.forEach((placeholder, name) -> {
            if (condition.contains(placeholder) || update.contains(placeholder)) {
                names.put(placeholder, name);
            }
        });
        UpdateItemRequest request = UpdateItemRequest.builder().tableName(table).key(Map.of(BLOCK, number(block.index())))
                .conditionExpression(condition).updateExpression(update).expressionAttributeNames(names)
                .expressionAttributeValues(values).returnValues(ReturnValue.ALL_NEW)
                .overrideConfiguration(o -> calls.timeouts(o, action, deadline)).build();
        return calls.call(action, () -> client.updateItem(request));
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "claim registry '" + table + "' on " + where;
    }
}
