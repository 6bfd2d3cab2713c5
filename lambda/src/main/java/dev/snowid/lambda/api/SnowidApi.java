package dev.snowid.lambda.api;

import dev.snowid.IdUnavailableException;
import dev.snowid.InvalidIdException;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.internal.ClosestName;
import dev.snowid.internal.WholeNumber;
import dev.snowid.lambda.http.ApiError;
import dev.snowid.lambda.http.ApiRequest;
import dev.snowid.lambda.http.ApiResponse;
import dev.snowid.lambda.http.GatewayEvent;
import dev.snowid.lambda.http.GatewayResponse;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionRole;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lease.AcquisitionRequest;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.RequestIdConflictException;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.LeaseAudit;
import dev.snowid.protocol.LeaseFields;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.protocol.LeaseRoute;
import dev.snowid.protocol.RetryAfter;
import dev.snowid.protocol.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The HTTP API (docs/api.md), the one way through it: reads an event, routes it by the route
 * API Gateway matched (its route key, a row of the route table: {@link Endpoint}), checks it,
 * answers it, and turns whatever was thrown on the way into the answer, in one place
 * ({@link #refusal}). A request that matched no route is never answered as one, whatever its
 * path decodes to. Client mistakes are 4xx with
 * {@code {"error","message"}}; "no ID right now" is 503 with {@code Retry-After}; only our own
 * faults are 500, and those say nothing more.
 */
public final class SnowidApi {

    static final String ROUTES = Endpoint.describe(route -> true, true);

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

    /** A response in the proxy format of its event, and what the request came to. */
    public record Answer(byte[] bytes, RequestOutcome outcome) {
    }

    /** What a route or a refusal answered, and what the outcome needs of it. */
    private record Reply(ApiResponse response, int idsIssued, String error, Throwable failure) {
        static Reply of(ApiResponse response) {
            return new Reply(response, 0, null, null);
        }
    }

    /**
     * Event bytes in, proxy response bytes out, for the event's payload format (2.0 when it is
     * unreadable): everything of a request but its log line and metrics.
     *
     * @param runtimeRequestId the Lambda runtime's id of the invocation; null: the event's own is used
     */
    public Answer answer(byte[] event, String runtimeRequestId) {
        ApiRequest request = null;
        Route route = Route.UNMATCHED;
        Reply reply;
        try {
            request = GatewayEvent.read(event);
            if (runtimeRequestId != null) {
                request = request.withRequestId(runtimeRequestId);
            }
            Optional<Endpoint> matched = Endpoint.ofRouteKey(request.routeKey());
            route = matched.map(Endpoint::route).orElse(Route.UNMATCHED);
            reply = answer(matched, request);
        } catch (RuntimeException e) {
            reply = refusal(e, requestId(request, runtimeRequestId));
        }
        RequestOutcome outcome = new RequestOutcome(requestId(request, runtimeRequestId), request == null ? null : request.method(),
                route, reply.response().status(), reply.idsIssued(), generator.currentLease().map(Lease::slot).orElse(null),
                reply.error(), reply.failure());
        PayloadFormat format = request == null ? PayloadFormat.V2 : request.format();
        return new Answer(GatewayResponse.write(reply.response(), format).getBytes(StandardCharsets.UTF_8), outcome);
    }

    /**
     * The one place an exception becomes an answer: a refusal ({@link ApiError}) is the client's
     * 4xx; no ID right now is a 503 with {@code Retry-After}, its cause logged and not answered;
     * anything else is our own fault, a 500 that says only where the log has it.
     */
    private static Reply refusal(RuntimeException e, String requestId) {
        if (e instanceof ApiError refused) {
            return new Reply(ApiResponse.error(refused), 0, refused.code(), null);
        }
        if (e instanceof IdUnavailableException unavailable) {
            return unavailable(unavailable);
        }
        return new Reply(ApiResponse.internalError(requestId), 0, ErrorCode.INTERNAL.code(), e);
    }

    /**
     * Answers the row API Gateway matched, after checking that this function serves it and that
     * the event's path and method fit it; a request that matched none gets the 404 or 405 that
     * says what it lacks ({@link #unmatched}).
     */
    private Reply answer(Optional<Endpoint> matched, ApiRequest request) {
        if (matched.isEmpty()) {
            throw unmatched(request);
        }
        Endpoint endpoint = matched.get();
        Route route = endpoint.route();
        String path = request.path();
        if (!route.answeredBy(role)) {
            throw notServedHere(request, route);
        }
        if (!route.matches(path) || !endpoint.method().equals(request.method())) {
            throw ApiError.notFound("no route " + shortened(request.method()) + " " + shortened(path) + ": the event names the route "
                    + endpoint.routeKey() + ", which its method and path do not fit; the routes are " + ROUTES);
        }
        if (route.leaseAuth()) {
            auth.check(request);
        }
        requireKnownParameters(request, endpoint);
        String parameter = route.parameter(path);
        return switch (endpoint) {
            case GET_IDS, POST_IDS -> ids(request);
            case DECODE -> Reply.of(decode(parameter));
            case ACQUIRE -> Reply.of(acquire(request));
            case SLOT_MAP -> Reply.of(slotMap());
            case RENEW -> Reply.of(renew(slot(parameter), request));
            case RELEASE -> Reply.of(release(slot(parameter), request));
            case HEALTH -> Reply.of(health());
        };
    }

    /**
     * What a request that matched no route ({@code $default}) lacks, checked in this order: a
     * trailing slash (404), a path of the other function (404), an unknown path (404), another
     * method on a known path (405 with {@code Allow}, the method compared as sent: {@code get} is
     * not {@code GET}), else a path that only decodes to a route (404). Never an answer of a route:
     * it passed none of their authorization.
     */
    private ApiError unmatched(ApiRequest request) {
        String path = request.path();
        if (hasTrailingSlash(path)) {
            String meant = path.substring(0, withoutTrailingSlashes(path));
            return ApiError.notFound("no route " + shortened(path) + " (no trailing slash: did you mean "
                    + shortened(meant.isEmpty() ? "/" : meant) + "?); the routes are " + ROUTES);
        }
        Route byPath = Route.of(path);
        if (!byPath.answeredBy(role)) {
            return notServedHere(request, byPath);
        }
        if (byPath == Route.UNMATCHED) {
            return ApiError.notFound("no route " + shortened(path) + "; the routes are " + ROUTES);
        }
        if (!Endpoint.methods(byPath).contains(request.method())) {
            return notAllowed(request, byPath);
        }
        return ApiError.notFound("no route " + shortened(request.method()) + " " + shortened(path) + " as sent: the API matches the"
                + " path as written, so write it without percent-escapes of its letters and digits; the routes are " + ROUTES);
    }

    /**
     * Refuses a query parameter the route does not take: ignored, a typo ({@code ?cnt=3}) would be
     * answered as if it were not there.
     */
    private static void requireKnownParameters(ApiRequest request, Endpoint endpoint) {
        List<String> taken = endpoint.route().parameters();
        for (String name : request.query().keySet()) {
            if (!taken.contains(name)) {
                String closest = ClosestName.among(name, taken);
                throw ApiError.badRequest(ErrorCode.INVALID_QUERY, "unknown query parameter '" + shortened(name) + "' on "
                        + endpoint.method() + " " + endpoint.route().template() + (taken.isEmpty() ? ": it takes no query parameters"
                        : ": it takes only " + String.join(", ", taken) + (closest == null ? "" : "; did you mean " + closest + "?")));
            }
        }
    }

    /** The runtime's id of the invocation, else the event's (null if neither is known). */
    private static String requestId(ApiRequest request, String runtimeRequestId) {
        return request == null ? runtimeRequestId : request.requestId();
    }

    /** Matches no route: else "/ids/" would read as an empty ID (400) and "POST /leases/" as a renewal (405). */
    private static boolean hasTrailingSlash(String path) {
        return path.length() > 1 && path.endsWith("/");
    }

    /**
     * Refuses a route of the other function before anything else about the request is read: the
     * lease function never issues IDs (so never leases a slot for itself), the ids function never
     * touches an agent's lease.
     */
    private ApiError notServedHere(ApiRequest request, Route route) {
        String answered = route.role() == FunctionRole.LEASES
                ? Endpoint.describe(other -> other.role() == FunctionRole.IDS, false) + "; the lease routes go to the lease function"
                : "the lease routes (" + Endpoint.describe(other -> other.role() == FunctionRole.LEASES, false) + ")";
        return ApiError.notFound("no route " + shortened(request.path()) + " on this function (" + FunctionSettings.ROLE + "="
                + role.value() + "); it answers " + answered);
    }

    private Reply ids(ApiRequest request) {
        int count = IdCount.parse(request.queryValues("count"));
        long[] ids;
        try {
            ids = count == 1 ? new long[] {generator.nextId()} : generator.nextIds(count);
        } catch (LeaseLostException e) {
            // Our own lease, lost under us: not the client's conflict. The next request leases anew.
            throw new IdUnavailableException("this environment's lease was lost: " + e.getMessage(), 1, e);
        }
        return new Reply(ApiResponse.json(200, new JsonWriter(ids.length * 22 + 16).idStrings("ids", ids).end()), ids.length, null, null);
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
                .field(LeaseFields.REGION, pool.region().regionOf(id).orElse(null))
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
        Lease lease;
        try {
            lease = leases.acquire(holder, asked.requestId().orElse(null));
        } catch (RequestIdConflictException e) {
            throw new ApiError(ErrorCode.REQUEST_ID_CONFLICT, LeaseFields.REQUEST_ID + " was first sent by another caller (another holder"
                    + " name, or in aws_iam mode another IAM caller), and answers that caller only: nothing was granted. Draw a fresh"
                    + " random " + LeaseFields.REQUEST_ID + " (" + AcquisitionRequest.SHAPE + ") for every new acquisition, and send"
                    + " one again only to retry the acquisition it was drawn for");
        }
        audit.accept(LeaseAudit.of(LeaseAudit.Event.GRANTED, lease).holder(holder).caller(caller(request)));
        return ApiResponse.json(LeaseRoute.ACQUIRE.successStatus(), LeaseMessage.lease(lease, codec.epochMillis()));
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
            return ApiResponse.json(LeaseRoute.RENEW.successStatus(), LeaseMessage.lease(renewed, codec.epochMillis()));
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
                .field(LeaseFields.REGION, pool.region().region())
                .field(LeaseFields.GUARD, pool.region().guardState())
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

    /** A 405 for a method the route does not take; {@code Allow} lists those it does. */
    private static ApiError notAllowed(ApiRequest request, Route route) {
        String allowed = String.join(", ", Endpoint.methods(route));
        return new ApiError(ErrorCode.METHOD_NOT_ALLOWED, "method " + shortened(request.method()) + " is not allowed on "
                + shortened(request.path()) + "; allowed: " + allowed, Map.of("Allow", allowed));
    }

    /**
     * A 503 with a fixed message per code: the exception's own message names tables, endpoints
     * and AWS error text, which is the operators' business, so it goes to the request log only.
     */
    private static Reply unavailable(IdUnavailableException e) {
        ErrorCode code = ErrorCode.of(e);
        long seconds = RetryAfter.seconds(e.retryAfterMillis());
        return new Reply(ApiResponse.error(code, code.publicMessage() + "; retry after " + seconds + " s",
                Map.of(RetryAfter.HEADER, Long.toString(seconds))), 0, code.code(), e);
    }

    private static String shortened(String text) {
        return EchoedInput.shortened(text);
    }
}
