package dev.snowid.lambda.dynamodb;

import static dev.snowid.lambda.dynamodb.LeaseTableSchema.EXPIRES_AT;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.FENCE;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.FLOOR;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.HOLDER;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.OWNER;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.RELEASED_BY;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.REQUEST;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.SLOT;
import static dev.snowid.lambda.dynamodb.LeaseTableSchema.TTL;
import static dev.snowid.lambda.dynamodb.LeaseItems.holderText;
import static dev.snowid.lambda.dynamodb.LeaseItems.leaseFrom;
import static dev.snowid.lambda.dynamodb.LeaseItems.number;
import static dev.snowid.lambda.dynamodb.LeaseItems.numberOf;
import static dev.snowid.lambda.dynamodb.LeaseItems.ownerAndFence;
import static dev.snowid.lambda.dynamodb.LeaseItems.string;
import static dev.snowid.lambda.dynamodb.LeaseItems.ttlFor;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.WallClock;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStore;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * The lease table on DynamoDB (the protocol: {@code docs/protocol.md}). Every call is one conditional {@code UpdateItem}
 * (or one paginated {@code Scan}); the item's own {@code expiresAt} decides whether a slot is
 * free, never DynamoDB's TTL, which deletes late and lazily.
 *
 * <p>Expressions are written so that DynamoDB and dynalite agree on them: both evaluate every
 * operand of a {@code SET} on the item as it was before the update (so {@code floor} receives
 * the old {@code expiresAt}), and both accept {@code attribute_not_exists} on the key.
 * {@code ReturnValuesOnConditionCheckFailure} is not used: dynalite lacks it. When a condition
 * fails, the store therefore cannot see why; the rare paths that need to know (a renewal that
 * would shorten the lease, a release whose last ID lies outside the window) follow up with
 * further conditional writes whose conditions exclude one another.
 *
 * <p>Every condition and update is named in {@link LeaseConditions}; every attribute name goes
 * through {@code #placeholders} ({@code owner} and {@code ttl} are DynamoDB reserved words).
 */
public final class DynamoDbLeaseStore implements LeaseStore, AutoCloseable {

    /** The owner token of priming's requests: a fixed placeholder, never a drawn token. */
    static final String PRIMING_OWNER = "00000000000000000000000000000000";

    private static final Map<String, String> NAMES = Map.of(
            "#slot", SLOT, "#owner", OWNER, "#fence", FENCE, "#expiresAt", EXPIRES_AT,
            "#floor", FLOOR, "#ttl", TTL, "#holder", HOLDER, "#request", REQUEST, "#releasedBy", RELEASED_BY);

    private final DynamoDbClient client;
    private final String table;
    private final StoreClockSkew skew;
    private final String where;
    private final LeaseTableCalls calls;

    private DynamoDbLeaseStore(DynamoDbClient client, String table, String tableSetting, StoreClockSkew skew, int maxAttempts,
            Duration operationTimeout, String where) {
        this.client = client;
        this.table = table;
        this.skew = skew;
        this.where = where;
        this.calls = new LeaseTableCalls(this, table, tableSetting, where, skew, maxAttempts, operationTimeout);
    }

    /**
     * The store the function uses: table {@code tableName} on DynamoDB of the function's region,
     * or on the engine at {@code endpoint}. Build it once per environment; it holds the SDK client.
     *
     * @param tableSetting the setting that named the table (e.g. an environment variable), for error messages
     */
    public static DynamoDbLeaseStore create(String tableName, String tableSetting, Optional<URI> endpoint, WallClock clock) {
        return builder().table(tableName).tableSetting(tableSetting).clock(clock)
                .client(LeaseTableClient.builder().endpoint(endpoint)).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public String tableName() {
        return table;
    }

    @Override
    public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("an owner token is needed to acquire slot " + slot);
        }
        if (expiresAt <= now || now < 0) {
            throw new IllegalArgumentException("lease on slot " + slot + " would expire at " + expiresAt
                    + ", not after now (" + now + ")");
        }
        UpdateItemRequest request = acquisition(slot, owner, holder, now, expiresAt, requestId);
        OperationDeadline deadline = calls.startOperation();
        String action = "acquire slot " + slot;
        try {
            return Optional.of(leaseFrom(slot, owner, updateItem(action, deadline, request).attributes()));
        } catch (ConditionalCheckFailedException held) {
            if (!LeaseTableCalls.wasRetried(held)) {
                return Optional.empty();
            }
            return acquiredByAnEarlierAttempt(slot, owner, deadline);
        }
    }

    private UpdateItemRequest acquisition(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        Map<String, AttributeValue> values = new HashMap<>();
        if (requestId != null) {
            values.put(":request", string(requestId));
        }
        values.put(":owner", string(owner));
        values.put(":holder", string(holderText(holder)));
        values.put(":now", number(now));
        values.put(":expiresAt", number(expiresAt));
        values.put(":ttl", number(ttlFor(expiresAt)));
        values.put(":zero", number(0));
        values.put(":one", number(1));
        return update(slot, LeaseConditions.SLOT_FREE, requestId == null ? LeaseConditions.GRANT : LeaseConditions.GRANT_FOR_REQUEST,
                values, ReturnValue.ALL_NEW);
    }

    /**
     * SnapStart priming: an acquisition's conditional write (won, then lost) and its Scan, built,
     * marshalled, signed and parsed exactly as for a lease, with the answers made in-process by
     * the HTTP layer ({@link PrimingHttpClient}), so nothing reaches the table. The owner token is
     * a fixed placeholder: no random draw, no lease.
     */
    public void primeRequestPath() {
        Slot slot = Slot.ofIndex(0);
        UpdateItemRequest write = acquisition(slot, PRIMING_OWNER, "priming", 1, 2, null);
        leaseFrom(slot, PRIMING_OWNER, client.updateItem(primed(write, PrimingHttpClient.Answer.WRITTEN)).attributes());
        try {
            client.updateItem(primed(write, PrimingHttpClient.Answer.CONDITION_FAILED));
        } catch (ConditionalCheckFailedException expected) {
            // The path a collision takes.
        }
        client.scan(scan(null).toBuilder().overrideConfiguration(o -> o.putHeader(PrimingHttpClient.HEADER,
                PrimingHttpClient.Answer.SCANNED.name()))
                .build());
    }

    private static UpdateItemRequest primed(UpdateItemRequest request, PrimingHttpClient.Answer answer) {
        return request.toBuilder().overrideConfiguration(o -> o.putHeader(PrimingHttpClient.HEADER, answer.name())).build();
    }

    /**
     * The SDK retried the acquisition (an attempt timed out or failed) and the last attempt found
     * the slot held: an earlier attempt may have landed, and the holder is then us. A write that
     * changes nothing, conditional on our owner token, tells: the token is 128 random bits, so if
     * the item carries it, the lease is ours, and the write returns it as stored.
     */
    private Optional<Lease> acquiredByAnEarlierAttempt(Slot slot, String owner, OperationDeadline deadline) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":owner", string(owner));
        UpdateItemRequest confirm = update(slot, LeaseConditions.OWNED_BY, LeaseConditions.TOUCH_HOLDER, values, ReturnValue.ALL_NEW);
        try {
            return Optional.of(leaseFrom(slot, owner, updateItem("acquire slot " + slot, deadline, confirm).attributes()));
        } catch (ConditionalCheckFailedException heldByAnother) {
            return Optional.empty();
        }
    }

    @Override
    public Lease renew(Slot slot, String owner, long fence, long newExpiresAt) {
        Map<String, AttributeValue> values = ownerAndFence(owner, fence);
        values.put(":expiresAt", number(newExpiresAt));
        values.put(":ttl", number(ttlFor(newExpiresAt)));
        UpdateItemRequest request = update(slot,
LeaseConditions.HELD_BY_AND_NOT_SHORTENED, LeaseConditions.EXTEND, values, ReturnValue.ALL_NEW);
        OperationDeadline deadline = calls.startOperation();
        try {
            return leaseFrom(slot, owner, updateItem("renew slot " + slot, deadline, request).attributes());
        } catch (ConditionalCheckFailedException lostOrShorter) {
            // Also covers a retried renewal whose first attempt landed: the lease is then still ours.
            return stillHeld(slot, owner, fence, deadline);
        }
    }

    /**
     * After a failed renewal: either the slot is no longer ours, or the stored expiry is already
     * later than the one asked for (the local clock stepped back). A write that changes nothing,
     * conditional on owner and fence, tells which, and returns the lease as stored.
     */
    private Lease stillHeld(Slot slot, String owner, long fence, OperationDeadline deadline) {
        UpdateItemRequest confirm = update(slot, LeaseConditions.HELD_BY, LeaseConditions.TOUCH_HOLDER,
                ownerAndFence(owner, fence), ReturnValue.ALL_NEW);
        try {
            return leaseFrom(slot, owner, updateItem("renew slot " + slot, deadline, confirm).attributes());
        } catch (ConditionalCheckFailedException lost) {
            throw lost(slot, fence, "renew");
        }
    }

    /**
     * Writes the release rule, {@link LeaseWindow#expiryOnRelease(long)}: {@code expiresAt :=
     * min(expiresAt, max(floor, lastIssued + 1))}, or the floor when nothing was issued, and
     * removes the owner. DynamoDB's update expressions have no min or max, so the cases are
     * writes with mutually exclusive conditions, tried in the order of likelihood: a holder that
     * issued IDs issued them inside its window, so the first write is the one that applies.
     * {@code LeaseStoreContract} pins what this writes to the rule at every boundary, on the engine.
     */
    @Override
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        if (lastIssuedMillis < 0) {
            throw new IllegalArgumentException("last issued ms must be 0 (nothing issued) or a unix ms, was " + lastIssuedMillis);
        }
        OperationDeadline deadline = calls.startOperation();
        if (lastIssuedMillis == 0) {
            // Nothing issued: the next holder may start where this one could have.
            releaseIf(slot, owner, fence, LeaseConditions.HELD_BY, LeaseConditions.RELEASE_TO_FLOOR, null, deadline);
            return;
        }
        // Clamped: a last ms of Long.MAX_VALUE must not wrap into "below the floor".
        long next = lastIssuedMillis == Long.MAX_VALUE ? Long.MAX_VALUE : lastIssuedMillis + 1;
        if (releaseIf(slot, owner, fence, LeaseConditions.HELD_BY_NEXT_IN_WINDOW, LeaseConditions.RELEASE_TO_NEXT, next,
                deadline)) {
            return;
        }
        // lastIssued + 1 below the floor (nothing can have been issued there): keep the floor.
        if (releaseIf(slot, owner, fence, LeaseConditions.HELD_BY_NEXT_BELOW_FLOOR, LeaseConditions.RELEASE_TO_FLOOR, next, deadline)) {
            return;
        }
        // lastIssued at or past the expiry: the expiry never grows on release.
        releaseIf(slot, owner, fence, LeaseConditions.HELD_BY_NEXT_PAST_EXPIRY, LeaseConditions.RELEASE_KEEPING_EXPIRY, next, deadline);
    }

    private boolean releaseIf(Slot slot, String owner, long fence, String condition, String updateExpression, Long next,
            OperationDeadline deadline) {
        Map<String, AttributeValue> values = ownerAndFence(owner, fence);
        if (next != null) {
            values.put(":next", number(next));
        }
        UpdateItemRequest request = update(slot, condition, updateExpression, values, ReturnValue.NONE);
        try {
            updateItem("release slot " + slot, deadline, request);
            return true;
        } catch (ConditionalCheckFailedException notThisCase) {
            if (next != null && !isLastCase(condition)) {
                return false; // another case's condition may hold
            }
            // Every case failed: an earlier release of ours (this call's, retried by the SDK, or a
            // retried DELETE whose answer was lost) may have freed it already.
            if (releasedBefore(slot, owner, fence, deadline)) {
                return true;
            }
            throw lost(slot, fence, "release");
        }
    }

    private static boolean isLastCase(String condition) {
        return condition.equals(LeaseConditions.HELD_BY_NEXT_PAST_EXPIRY);
    }

    /**
     * No release case applied: an earlier release of ours may have landed (an SDK retry of this
     * call, or the caller's retry of a release whose answer was lost). Only a release removes the
     * owner while keeping the fence (every acquisition bumps it), and it records who released, so
     * a write that changes nothing, conditional on exactly that, tells whether ours did.
     */
    private boolean releasedBefore(Slot slot, String owner, long fence, OperationDeadline deadline) {
        UpdateItemRequest confirm = update(slot, LeaseConditions.RELEASED_BY, LeaseConditions.TOUCH_FENCE,
                ownerAndFence(owner, fence), ReturnValue.NONE);
        try {
            updateItem("release slot " + slot, deadline, confirm);
            return true;
        } catch (ConditionalCheckFailedException notReleased) {
            return false;
        }
    }

    /**
     * One consistent Scan for the item carrying {@code requestId} that is still held and not
     * expired; the request record goes with the first renewal or the release, so what it reads is
     * the item as the grant wrote it. Only the matching item's owner token is read.
     */
    @Override
    public Optional<Lease> grantedFor(String requestId, long now) {
        Map<String, AttributeValue> values = new HashMap<>();
        values.put(":request", string(requestId));
        values.put(":now", number(now));
        Map<String, AttributeValue> startKey = null;
        OperationDeadline deadline = calls.startOperation();
        String action = "look for the lease of a retried acquisition";
        do {
            Map<String, AttributeValue> from = startKey;
            ScanResponse page = calls.call(action, () -> client.scan(scan -> scan
                    .overrideConfiguration(o -> calls.timeouts(o, action, deadline))
                    .tableName(table)
                    .consistentRead(true)
                    .projectionExpression("#slot, #owner, #fence, #floor, #expiresAt")
                    .filterExpression(LeaseConditions.GRANTED_FOR)
                    .expressionAttributeNames(Map.of("#slot", SLOT, "#owner", OWNER, "#fence", FENCE, "#floor", FLOOR,
                            "#expiresAt", EXPIRES_AT, "#request", REQUEST))
                    .expressionAttributeValues(values)
                    .exclusiveStartKey(from)));
            for (Map<String, AttributeValue> item : page.items()) {
                long index = numberOf(item, SLOT);
                AttributeValue owner = item.get(OWNER);
                if (index >= 0 && index < Slot.COUNT && owner != null && owner.s() != null) {
                    Slot slot = Slot.ofIndex((int) index);
                    return Optional.of(leaseFrom(slot, owner.s(), item));
                }
            }
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
        return Optional.empty();
    }

    @Override
    public Map<Slot, Long> ownedExpiries() {
        Map<Slot, Long> expiries = new TreeMap<>();
        Map<String, AttributeValue> startKey = null;
        OperationDeadline deadline = calls.startOperation();
        String action = "scan for free slots";
        do {
            Map<String, AttributeValue> from = startKey;
            ScanResponse page = calls.call(action, () -> client.scan(scan(from).toBuilder()
                    .overrideConfiguration(o -> calls.timeouts(o, action, deadline))
                    .build()));
            for (Map<String, AttributeValue> item : page.items()) {
                long index = numberOf(item, SLOT);
                if (index >= 0 && index < Slot.COUNT && item.containsKey(EXPIRES_AT)) {
                    expiries.put(Slot.ofIndex((int) index), numberOf(item, EXPIRES_AT));
                }
            }
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
        return expiries;
    }

    /** One page of the Scan for owned slots, from {@code startKey} (null: the first page). */
    private ScanRequest scan(Map<String, AttributeValue> startKey) {
        return ScanRequest.builder()
                .tableName(table)
                .consistentRead(true)
                .projectionExpression("#slot, #expiresAt")
                .filterExpression(LeaseConditions.HAS_OWNER)
                .expressionAttributeNames(Map.of("#slot", SLOT, "#expiresAt", EXPIRES_AT, "#owner", OWNER))
                .exclusiveStartKey(startKey)
                .build();
    }

    /**
     * The same Scan as {@link #ownedExpiries()}, projecting holder, fence and window: the owner
     * attribute is only tested for existence, never read, so no token leaves the table this way.
     */
    @Override
    public List<HeldSlot> heldSlots() {
        List<HeldSlot> held = new ArrayList<>();
        Map<String, AttributeValue> startKey = null;
        OperationDeadline deadline = calls.startOperation();
        String action = "scan for the slot map";
        do {
            Map<String, AttributeValue> from = startKey;
            ScanResponse page = calls.call(action, () -> client.scan(scan -> scan
                    .overrideConfiguration(o -> calls.timeouts(o, action, deadline))
                    .tableName(table)
                    .consistentRead(true)
                    .projectionExpression("#slot, #holder, #fence, #floor, #expiresAt")
                    .filterExpression(LeaseConditions.HAS_OWNER)
                    .expressionAttributeNames(Map.of("#slot", SLOT, "#holder", HOLDER, "#fence", FENCE, "#floor", FLOOR,
                            "#expiresAt", EXPIRES_AT, "#owner", OWNER))
                    .exclusiveStartKey(from)));
            for (Map<String, AttributeValue> item : page.items()) {
                long index = numberOf(item, SLOT);
                if (index >= 0 && index < Slot.COUNT && item.containsKey(EXPIRES_AT) && item.containsKey(FENCE)) {
                    AttributeValue holder = item.get(HOLDER);
                    held.add(new HeldSlot(Slot.ofIndex((int) index), holder == null ? "" : holder.s(), numberOf(item, FENCE),
                            item.containsKey(FLOOR) ? numberOf(item, FLOOR) : 0, numberOf(item, EXPIRES_AT)));
                }
            }
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
        held.sort((a, b) -> a.slot().compareTo(b.slot()));
        return held;
    }

    @Override
    public OptionalLong clockSkewMillis() {
        return skew.skewMillis();
    }

    @Override
    public void forgetClockSkew() {
        skew.forget();
    }

    @Override
    public void close() {
        client.close();
    }

    @Override
    public String toString() {
        return "lease table '" + table + "' on " + where;
    }

    /** One conditional UpdateItem on {@code slot}'s item, naming only the attributes its expressions use. */
    private UpdateItemRequest update(Slot slot, String condition, String update, Map<String, AttributeValue> values,
            ReturnValue returnValues) {
        // DynamoDB rejects a request that defines a placeholder its expressions do not use.
        Map<String, String> names = new HashMap<>();
        NAMES.forEach((placeholder, name) -> {
            if (condition.contains(placeholder) || update.contains(placeholder)) {
                names.put(placeholder, name);
            }
        });
        return UpdateItemRequest.builder()
                .tableName(table)
                .key(Map.of(SLOT, number(slot.index())))
                .conditionExpression(condition)
                .updateExpression(update)
                .expressionAttributeNames(names)
                .expressionAttributeValues(values)
                .returnValues(returnValues)
                .build();
    }

    private static LeaseLostException lost(Slot slot, long fence, String action) {
        return new LeaseLostException("could not " + action + " the lease on slot " + slot + " (fence " + fence
                + "): the slot now has another owner or fence, was released, or has no item");
    }

    /** One UpdateItem with what is left of its operation's deadline as its {@code apiCallTimeout}. */
    private UpdateItemResponse updateItem(String action, OperationDeadline deadline, UpdateItemRequest request) {
        UpdateItemRequest timed = request.toBuilder().overrideConfiguration(o -> calls.timeouts(o, action, deadline)).build();
        return calls.call(action, () -> client.updateItem(timed));
    }

    /** Assembles a store: table, clock (for the skew estimate) and SDK client settings. */
    public static final class Builder {

        private String table;
        private String tableSetting;
        private WallClock clock = WallClock.SYSTEM;
        private LeaseTableClient.Builder client = LeaseTableClient.builder();

        private Builder() {
        }

        public Builder table(String table) {
            this.table = table;
            return this;
        }

        /** The setting that named the table (e.g. an environment variable): error messages tell to fix it there. */
        public Builder tableSetting(String tableSetting) {
            this.tableSetting = tableSetting;
            return this;
        }

        /** The local clock compared with the store's {@code Date} header. */
        public Builder clock(WallClock clock) {
            this.clock = clock;
            return this;
        }

        public Builder client(LeaseTableClient.Builder client) {
            this.client = client;
            return this;
        }

        public DynamoDbLeaseStore build() {
            if (table == null || table.isBlank()) {
                throw new IllegalArgumentException("no lease table name" + (tableSetting == null ? "" : ": set " + tableSetting));
            }
            StoreClockSkew skew = new StoreClockSkew(clock);
            String where = client.endpoint().map(URI::toString).orElse("DynamoDB");
            return new DynamoDbLeaseStore(client.interceptor(skew).build(), table, tableSetting, skew, client.maxAttempts(),
                    client.operationTimeout(), where);
        }
    }
}
