package dev.snowid.lambda.api;

import dev.snowid.IdUnavailableException;
import dev.snowid.InvalidIdException;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.internal.WholeNumber;
import dev.snowid.lambda.Version;
import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.ApiRequest;
import dev.snowid.lambda.http.ApiResponse;
import dev.snowid.lambda.json.JsonWriter;
import dev.snowid.lambda.settings.FunctionRole;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.telemetry.RequestOutcome;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.LeaseAudit;
import dev.snowid.protocol.LeaseRoute;
import dev.snowid.protocol.RetryAfter;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The HTTP API (docs/api.md): routes a request, checks its input, and turns every outcome
 * into a status. Client mistakes are 4xx with {@code {"error","message"}}; "no ID right now"
 * is 503 with {@code Retry-After}; only our own faults are 500, and those say nothing more.
 */
public final class SnowidApi {

    private static final String LEASE_PREFIX = Route.LEASES.template() + "/";
    private static final String DECODE_PREFIX = Route.IDS.template() + "/";
    static final String ROUTES = "GET|POST /ids?count=N, GET /ids/{id}, POST|GET /leases, PUT|DELETE /leases/{slot}, GET /health";

    private final LeasedGenerator generator;
    private final PooledLeaseSource leases;
    private final SnowflakeCodec codec;
    private final LeaseRouteAuth auth;
    private final WallClock clock;
    private final PoolView pool;
    /**
     * Where the lease routes' outcomes go, as their audit lines: one per grant, renewal, release
     * and loss; the audit log and the request's metrics both subscribe.
     */
    private final Consumer<LeaseAudit> audit;
    private final FunctionRole role;

    /**
     * @param leases where {@code POST /leases} grants from: the agents' part of the pool
     * @param role   which routes are answered here; the others are 404 before anything else is read
     */
    public SnowidApi(LeasedGenerator generator, PooledLeaseSource leases, SnowflakeCodec codec, LeaseRouteAuth auth, WallClock clock,
              PoolView pool, Consumer<LeaseAudit> audit, FunctionRole role) {
        this.role = role;
        this.generator = generator;
        this.leases = leases;
        this.codec = codec;
        this.auth = auth;
        this.clock = clock;
        this.pool = pool;
        this.audit = audit;
    }

    public ApiResponse handle(ApiRequest request, RequestOutcome outcome) {
        outcome.method = request.method();
        try {
            return route(request, outcome);
        } catch (ApiError e) {
            outcome.error = e.code();
            return ApiResponse.error(e);
        } catch (IdUnavailableException e) {
            return unavailable(outcome, e);
        } catch (RuntimeException e) {
            outcome.error = ErrorCode.INTERNAL.code();
            outcome.failure = e;
            return ApiResponse.internalError(request.requestId());
        } finally {
            outcome.slot = generator.currentLease().map(Lease::slot).orElse(null);
        }
    }

    private ApiResponse route(ApiRequest request, RequestOutcome outcome) {
        String path = request.path();
        if (path.length() > 1 && path.endsWith("/")) {
            // Else "/ids/" would read as an empty ID (400) and "POST /leases/" as a renewal (405).
            String meant = path.substring(0, withoutTrailingSlashes(path));
            throw ApiError.notFound("no route " + shortened(path) + " (no trailing slash: did you mean "
                    + shortened(meant.isEmpty() ? "/" : meant) + "?); the routes are " + ROUTES);
        }
        if (path.equals(Route.IDS.template())) {
            outcome.route = Route.IDS;
            servedHere(Route.IDS, request);
            allow(request, "GET", "POST");
            return ids(request, outcome);
        }
        if (path.startsWith(DECODE_PREFIX) && path.indexOf('/', DECODE_PREFIX.length()) < 0) {
            outcome.route = Route.DECODE;
            servedHere(Route.DECODE, request);
            allow(request, "GET");
            return decode(path.substring(DECODE_PREFIX.length()));
        }
        if (path.equals(Route.LEASES.template())) {
            outcome.route = Route.LEASES;
            servedHere(Route.LEASES, request);
            allow(request, LeaseRoute.ACQUIRE.method(), LeaseRoute.SLOT_MAP.method());
            auth.check(request);
            return request.method().equals(LeaseRoute.SLOT_MAP.method()) ? slotMap() : acquire(request);
        }
        if (path.startsWith(LEASE_PREFIX) && path.indexOf('/', LEASE_PREFIX.length()) < 0) {
            outcome.route = Route.LEASE;
            servedHere(Route.LEASE, request);
            allow(request, LeaseRoute.RENEW.method(), LeaseRoute.RELEASE.method());
            auth.check(request);
            Slot slot = slot(path.substring(LEASE_PREFIX.length()));
            return request.method().equals(LeaseRoute.RENEW.method()) ? renew(slot, request) : release(slot, request);
        }
        if (path.equals(Route.HEALTH.template())) {
            outcome.route = Route.HEALTH;
            servedHere(Route.HEALTH, request);
            allow(request, "GET");
            return health();
        }
        if (!role.servesPublicRoutes()) {
            throw notServedHere(request, "the lease routes (POST|GET /leases, PUT|DELETE /leases/{slot})");
        }
        throw ApiError.notFound("no route " + shortened(request.path()) + "; the routes are " + ROUTES);
    }

    /**
     * Refuses a route of the other function before anything else about the request is read: the
     * lease function never issues IDs (so never leases a slot for itself), the ids function never
     * touches an agent's lease.
     */
    private void servedHere(Route route, ApiRequest request) {
        boolean lease = route == Route.LEASES || route == Route.LEASE;
        if (lease && !role.servesLeaseRoutes()) {
            throw notServedHere(request, "GET|POST /ids, GET /ids/{id}, GET /health; the lease routes go to the lease function");
        }
        if (!lease && !role.servesPublicRoutes()) {
            throw notServedHere(request, "the lease routes (POST|GET /leases, PUT|DELETE /leases/{slot})");
        }
    }

    private ApiError notServedHere(ApiRequest request, String answered) {
        return ApiError.notFound("no route " + shortened(request.path()) + " on this function (" + FunctionSettings.ROLE + "="
                + role.value() + "); it answers " + answered);
    }

    private ApiResponse ids(ApiRequest request, RequestOutcome outcome) {
        int count = IdCount.parse(request.queryValues("count"));
        long[] ids;
        try {
            ids = count == 1 ? new long[] {generator.nextId()} : generator.nextIds(count);
        } catch (LeaseLostException e) {
            // Our own lease, lost under us: not the client's conflict. The next request leases anew.
            throw new IdUnavailableException("this environment's lease was lost: " + e.getMessage(), 1, e);
        }
        outcome.idsIssued = ids.length;
        return ApiResponse.json(200, new JsonWriter(ids.length * 22 + 16).idStrings("ids", ids).end());
    }

    private ApiResponse decode(String text) {
        SnowflakeId id;
        try {
            id = codec.parse(text);
        } catch (InvalidIdException e) {
            throw ApiError.badRequest(ErrorCode.INVALID_ID, e.getMessage());
        }
        return ApiResponse.json(200, new JsonWriter()
                .field("id", Long.toString(id.value()))
                .field("timestamp", id.unixMillis())
                .field("time", id.instant().toString())
                .field("datacenter", id.datacenter())
                .field("machine", id.machine())
                .field("sequence", id.sequence())
                .end());
    }

    /**
     * The length of {@code path} without its trailing slashes: one pass from the end, so a run of
     * 10,000 slashes costs 10,000 steps (a regex strip was quadratic in the run).
     */
    public static int withoutTrailingSlashes(CharSequence path) {
        int end = path.length();
        while (end > 0 && path.charAt(end - 1) == '/') {
            end--;
        }
        return end;
    }

    private ApiResponse slotMap() {
        return ApiResponse.json(LeaseRoute.SLOT_MAP.successStatus(), LeaseBodies.slotMap(pool.map()));
    }

    private ApiResponse acquire(ApiRequest request) {
        if (pool.parts().agents().isEmpty()) {
            // Not a moment's shortage but the deployment's choice; retrying later changes nothing until it is redeployed.
            throw new NoFreeSlotException("this function keeps no slot for POST /leases (" + FunctionSettings.AGENT_SLOTS + "=0)",
                    leaseRetryMillis());
        }
        LeaseRequestBody.Acquisition asked = LeaseRequestBody.acquisition(request.body());
        String holder = auth.holderOf(request, asked.holder().orElse(LeaseRequestBody.DEFAULT_HOLDER));
        Lease lease = leases.acquire(holder, asked.requestId().orElse(null));
        audit.accept(LeaseAudit.of(LeaseAudit.Event.GRANTED, lease).holder(holder).caller(caller(request)));
        return ApiResponse.json(LeaseRoute.ACQUIRE.successStatus(), LeaseBodies.lease(lease, codec.epochMillis()));
    }

    private long leaseRetryMillis() {
        return leases.terms().leaseMillis();
    }

    /**
     * A slot of the function's part: the lease routes never granted it, so they neither extend nor
     * free it (its holder is an execution environment, which renews and releases on the table).
     */
    private void requireAgentsPart(Slot slot, String action) {
        if (!pool.parts().agentsMayHold(slot)) {
            throw ApiError.notFound("no lease " + slot.index() + " (" + slot + ") to " + action + " through the lease API: the slot is in "
                    + "the function's part of the pool (" + pool.description() + "); lease a slot with POST /leases");
        }
    }

    private ApiResponse renew(Slot slot, ApiRequest request) {
        requireAgentsPart(slot, "renew");
        LeaseRequestBody.Claim claim = LeaseRequestBody.claim(request.body());
        try {
            Lease renewed = leases.renew(slot, claim.owner(), claim.fence());
            audit.accept(LeaseAudit.of(LeaseAudit.Event.RENEWED, renewed).caller(caller(request)));
            return ApiResponse.json(LeaseRoute.RENEW.successStatus(), LeaseBodies.lease(renewed, codec.epochMillis()));
        } catch (LeaseLostException e) {
            throw lost(slot, claim.fence(), e, request);
        }
    }

    private ApiResponse release(Slot slot, ApiRequest request) {
        requireAgentsPart(slot, "release");
        LeaseRequestBody.Release release = LeaseRequestBody.release(request.body(), codec);
        try {
            leases.release(slot, release.claim().owner(), release.claim().fence(), release.lastIssued());
            audit.accept(LeaseAudit.of(LeaseAudit.Event.RELEASED, slot, release.claim().fence()).lastIssued(release.lastIssued())
                    .caller(caller(request)));
            return ApiResponse.noContent();
        } catch (LeaseLostException e) {
            throw lost(slot, release.claim().fence(), e, request);
        }
    }

    private ApiError lost(Slot slot, long fence, LeaseLostException e, ApiRequest request) {
        audit.accept(LeaseAudit.of(LeaseAudit.Event.LOST, slot, fence).caller(caller(request)).reason(e.getMessage()));
        return new ApiError(ErrorCode.LEASE_LOST, "slot " + slot.index() + " (" + slot + ") is not held with this owner token and fence: "
                + e.getMessage() + "; stop issuing from it and lease a new slot with POST /leases");
    }

    /** Who called a lease route, for its audit line: as the auth mode admitted the caller, and the request. */
    private String caller(ApiRequest request) {
        return auth.callerOf(request) + ", request " + (request.requestId() == null ? "(none)" : request.requestId());
    }

    private ApiResponse health() {
        Optional<Lease> lease = generator.currentLease();
        long now = clock.millis();
        return ApiResponse.json(200, new JsonWriter()
                .field("status", "ok")
                .field("version", Version.CURRENT)
                .field("slot", lease.map(l -> l.slot().toString()).orElse(null))
                .field("leaseMillisLeft", lease.map(l -> l.window().remainingMillis(now)).orElse(null))
                .end());
    }

    /** A slot number in the path: 0 to 1023 and in this deployment's pool, else there is no such lease. */
    private Slot slot(String text) {
        String allowed = "a slot is a whole number from 0 to " + (Slot.COUNT - 1)
                + " (datacenter * 32 + machine) in this function's pool (" + pool.description() + ")";
        OptionalLong number = WholeNumber.parse(text);
        if (!number.isPresent() || text.length() > 4) {
            throw ApiError.notFound("no lease '" + shortened(text) + "': " + allowed);
        }
        if (number.getAsLong() >= Slot.COUNT) {
            throw ApiError.notFound("no lease " + number.getAsLong() + ": " + allowed);
        }
        int index = (int) number.getAsLong();
        Slot slot = Slot.ofIndex(index);
        if (!pool.parts().whole().contains(slot)) {
            throw ApiError.notFound("no lease " + index + " (" + slot + "): " + allowed);
        }
        return slot;
    }

    private static void allow(ApiRequest request, String... methods) {
        for (String method : methods) {
            if (method.equals(request.method())) {
                return;
            }
        }
        String allowed = String.join(", ", methods);
        throw new ApiError(ErrorCode.METHOD_NOT_ALLOWED, "method " + shortened(request.method()) + " is not allowed on "
                + shortened(request.path()) + "; allowed: " + allowed, Map.of("Allow", allowed));
    }

    /**
     * A 503 with a fixed message per code: the exception's own message names tables, endpoints
     * and AWS error text, which is the operators' business, so it goes to the request log only.
     */
    private static ApiResponse unavailable(RequestOutcome outcome, IdUnavailableException e) {
        ErrorCode code = ErrorCode.of(e);
        outcome.error = code.code();
        outcome.failure = e;
        long seconds = RetryAfter.seconds(e.retryAfterMillis());
        return ApiResponse.error(code, code.publicMessage() + "; retry after " + seconds + " s",
                Map.of(RetryAfter.HEADER, Long.toString(seconds)));
    }

    private static String shortened(String text) {
        return EchoedInput.shortened(text);
    }
}
