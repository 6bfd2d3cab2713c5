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
import dev.snowid.lease.RequestClaim;
import dev.snowid.region.ClaimMarkers;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
 * (or one paginated {@code Scan}; an acquisition id's claim, {@link RequestClaims}, also one keyed
 * {@code GetItem}); the item's own {@code expiresAt} decides whether a slot is free, never
 * DynamoDB's TTL, which deletes late and lazily.
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

    private final DynamoDbClient client;
    private final String table;
    private final StoreClockSkew skew;
    private final String where;
    private final LeaseTableCalls calls;
    private final RequestClaims claims;

    private DynamoDbLeaseStore(DynamoDbClient client, String table, String tableSetting, StoreClockSkew skew, int maxAttempts,
            Duration operationTimeout, String where) {
        this.client = client;
        this.table = table;
        this.skew = skew;
        this.where = where;
        this.calls = new LeaseTableCalls(client, this, table, tableSetting, where, skew, maxAttempts, operationTimeout);
        this.claims = new RequestClaims(table, calls);
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

    /** The claim markers kept in this table, over this store's client ({@code dev.snowid.region}). */
    public ClaimMarkers claimMarkers() {
        return new LeaseTableMarkers(client, table, calls);
    }

    @Override
    public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        String grant = requestId == null ? LeaseConditions.GRANT : LeaseConditions.GRANT_FOR_REQUEST;
        return acquire(slot, owner, LeaseConditions.SLOT_FREE, grant, acquisition(slot, owner, holder, now, expiresAt, requestId));
    }

    @Override
    public Optional<Lease> tryAcquireUnheld(Slot slot, String owner, String holder, long now, long expiresAt) {
        return acquire(slot, owner, LeaseConditions.SLOT_UNHELD, LeaseConditions.GRANT,
                acquisition(slot, owner, holder, now, expiresAt, null));
    }

    private Optional<Lease> acquire(Slot slot, String owner, String condition, String grant, Map<String, AttributeValue> values) {
        UpdateItemRequest request = update(slot, condition, grant, values, ReturnValue.ALL_NEW);
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

    /** The values of an acquisition's write; its arguments checked first. */
    private static Map<String, AttributeValue> acquisition(Slot slot, String owner, String holder, long now, long expiresAt,
            String requestId) {
        if (owner == null || owner.isEmpty()) {
            throw new IllegalArgumentException("an owner token is needed to acquire slot " + slot);
        }
        if (expiresAt <= now || now < 0) {
            throw new IllegalArgumentException("lease on slot " + slot + " would expire at " + expiresAt
                    + ", not after now (" + now + ")");
        }
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
        return values;
    }

    /**
     * SnapStart priming: an acquisition's conditional write (won, then lost) and its Scan, built,
     * marshalled, signed and parsed exactly as for a lease, with the answers made in-process by
     * the HTTP layer ({@link PrimingHttpClient}), so nothing reaches the table. The owner token is
     * a fixed placeholder: no random draw, no lease.
     */
    public void primeRequestPath() {
        Slot slot = Slot.ofIndex(0);
        UpdateItemRequest write = update(slot, LeaseConditions.SLOT_FREE, LeaseConditions.GRANT,
                acquisition(slot, PrimingHttpClient.OWNER_TOKEN, "priming", 1, 2, null), ReturnValue.ALL_NEW);
        leaseFrom(slot, PrimingHttpClient.OWNER_TOKEN, client.updateItem(primed(write, PrimingHttpClient.Answer.WRITTEN)).attributes());
        try {
            client.updateItem(primed(write, PrimingHttpClient.Answer.CONDITION_FAILED));
        } catch (ConditionalCheckFailedException expected) {
            // The path a collision takes.
        }
        client.scan(ownedScan().toBuilder().overrideConfiguration(o -> o.putHeader(PrimingHttpClient.HEADER,
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
     * Writes the release rule, one {@link ReleaseCase} at a time in the order of likelihood, and
     * removes the owner; the cases' conditions exclude one another, so at most one applies.
     * {@code LeaseStoreContract} pins what this writes to the rule at every boundary, on the engine.
     */
    @Override
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        if (lastIssuedMillis < 0) {
            throw new IllegalArgumentException("last issued ms must be 0 (nothing issued) or a unix ms, was " + lastIssuedMillis);
        }
        OperationDeadline deadline = calls.startOperation();
        Long next = ReleaseCase.next(lastIssuedMillis);
        for (ReleaseCase release : ReleaseCase.forLastIssued(lastIssuedMillis)) {
            if (released(slot, owner, fence, release, next, deadline)) {
                return;
            }
        }
        // No case applied: an earlier release of ours (this call's, retried by the SDK, or a
        // retried DELETE whose answer was lost) may have freed it already.
        if (!releasedBefore(slot, owner, fence, deadline)) {
            throw lost(slot, fence, "release");
        }
    }

    /** Whether this case's write applied; false when the item is not in this case. */
    private boolean released(Slot slot, String owner, long fence, ReleaseCase release, Long next, OperationDeadline deadline) {
        Map<String, AttributeValue> values = ownerAndFence(owner, fence);
        if (next != null) {
            values.put(":next", number(next));
        }
        try {
            updateItem("release slot " + slot, deadline, update(slot, release.condition(), release.update(), values, ReturnValue.NONE));
            return true;
        } catch (ConditionalCheckFailedException notThisCase) {
            return false;
        }
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

    @Override
    public RequestClaim claim(String requestId, String holder, String owner, long until) {
        return claims.claim(requestId, holder, owner, until);
    }

    @Override
    public boolean recordGrant(RequestClaim read, Lease lease) {
        return claims.recordGrant(read, lease);
    }

    @Override
    public Optional<Lease> grantedFor(RequestClaim claim, long now) {
        return claims.grantedFor(claim, now);
    }

    @Override
    public Map<Slot, Long> ownedExpiries() {
        Map<Slot, Long> expiries = new TreeMap<>();
        scan("scan for free slots", ownedScan()).forEach(item -> slotOf(item).filter(slot -> item.containsKey(EXPIRES_AT))
                .ifPresent(slot -> expiries.put(slot, numberOf(item, EXPIRES_AT))));
        return expiries;
    }

    /** The Scan for owned slots and their expiries. */
    private ScanRequest ownedScan() {
        return scanOf("#slot, #expiresAt", LeaseConditions.HAS_OWNER, Map.of());
    }

    /**
     * The same items as {@link #ownedExpiries()}, projecting holder, fence and window: the owner
     * attribute is only tested for existence, never read, so no token leaves the table this way.
     */
    @Override
    public List<HeldSlot> heldSlots() {
        return scan("scan for the slot map", scanOf("#slot, #holder, #fence, #floor, #expiresAt", LeaseConditions.HAS_OWNER, Map.of()))
                .flatMap(item -> slotOf(item).filter(slot -> item.containsKey(EXPIRES_AT) && item.containsKey(FENCE)).map(slot -> {
                    AttributeValue holder = item.get(HOLDER);
                    return new HeldSlot(slot, holder == null ? "" : holder.s(), numberOf(item, FENCE),
                            item.containsKey(FLOOR) ? numberOf(item, FLOOR) : 0, numberOf(item, EXPIRES_AT));
                }).stream())
                .sorted((a, b) -> a.slot().compareTo(b.slot()))
                .collect(Collectors.toList());
    }

    /**
     * Every item of a paginated Scan, read page by page as they are consumed (a caller that stops
     * early reads no further page), all pages within one operation's time budget.
     */
    private Stream<Map<String, AttributeValue>> scan(String action, ScanRequest request) {
        OperationDeadline deadline = calls.startOperation();
        ScanResponse first = page(action, request, null, deadline);
        return Stream.iterate(first, Objects::nonNull,
                        page -> page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                                ? page(action, request, page.lastEvaluatedKey(), deadline) : null)
                .flatMap(page -> page.items().stream());
    }

    /** One page of {@code request}, from {@code startKey} (null: the first page). */
    private ScanResponse page(String action, ScanRequest request, Map<String, AttributeValue> startKey, OperationDeadline deadline) {
        ScanRequest page = request.toBuilder().exclusiveStartKey(startKey)
                .overrideConfiguration(o -> calls.timeouts(o, action, deadline)).build();
        return calls.call(action, () -> client.scan(page));
    }

    /** A consistent Scan of the table: the items {@code filter} admits, with the attributes {@code projection} names. */
    private ScanRequest scanOf(String projection, String filter, Map<String, AttributeValue> values) {
        ScanRequest.Builder scan = ScanRequest.builder()
                .tableName(table)
                .consistentRead(true)
                .projectionExpression(projection)
                .filterExpression(filter)
                .expressionAttributeNames(LeaseConditions.placeholders(projection, filter));
        if (!values.isEmpty()) {
            scan.expressionAttributeValues(values); // DynamoDB rejects an empty map
        }
        return scan.build();
    }

    /** The item's slot; none for an item whose key is not a slot's (a request's claim). */
    private static Optional<Slot> slotOf(Map<String, AttributeValue> item) {
        AttributeValue key = item.get(SLOT);
        OptionalInt index = key == null ? OptionalInt.empty() : LeaseTableSchema.slotIndexOf(key.n());
        return index.isPresent() ? Optional.of(Slot.ofIndex(index.getAsInt())) : Optional.empty();
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
        return LeaseItems.update(table, Integer.toString(slot.index()), condition, update, values, returnValues);
    }

    private static LeaseLostException lost(Slot slot, long fence, String action) {
        return new LeaseLostException("could not " + action + " the lease on slot " + slot + " (fence " + fence
                + "): the slot now has another owner or fence, was released, or has no item");
    }

    private UpdateItemResponse updateItem(String action, OperationDeadline deadline, UpdateItemRequest request) {
        return calls.updateItem(action, deadline, request);
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
