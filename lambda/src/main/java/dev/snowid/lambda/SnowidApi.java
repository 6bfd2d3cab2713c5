package dev.snowid.lambda;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.InvalidIdException;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.lambda.telemetry.LeaseHolder;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The HTTP API of DESIGN.md §4: routes a request, checks its input, and turns every outcome
 * into a status. Client mistakes are 4xx with {@code {"error","message"}}; "no ID right now"
 * is 503 with {@code Retry-After}; only our own faults are 500, and those say nothing more.
 */
final class SnowidApi {

    static final String ROUTES = "GET|POST /ids?count=N, GET /ids/{id}, POST /leases, PUT|DELETE /leases/{slot}, GET /health";

    /** What a client is told for each 503 code; the cause is in the request log. */
    private static final Map<String, String> UNAVAILABLE = Map.of(
            "store_unavailable", "the lease store is unavailable",
            "no_free_slot", "every slot of this function's pool is leased",
            "clock_behind", "this function's clock is behind the time its lease starts at",
            "clock_skew", "this function's clock differs from the lease store's by more than the tolerated skew",
            "unavailable", "no lease is in force for this function right now (lost or run out)");

    /** Every error code the API answers with: the values of the {@code ErrorCode} metric dimension. */
    static final Set<String> ERROR_CODES = Set.of("invalid_count", "invalid_id", "invalid_json", "invalid_body", "invalid_encoding",
            "invalid_event", "unauthorized", "not_found", "method_not_allowed", "lease_lost", "internal", "no_free_slot",
            "store_unavailable", "clock_behind", "clock_skew", "unavailable");

    private final LeasedGenerator generator;
    private final PooledLeaseSource leases;
    private final SnowflakeCodec codec;
    private final LeaseRouteAuth auth;
    private final WallClock clock;
    private final String poolDescription;

    SnowidApi(LeasedGenerator generator, PooledLeaseSource leases, SnowflakeCodec codec, LeaseRouteAuth auth, WallClock clock,
              String poolDescription) {
        this.generator = generator;
        this.leases = leases;
        this.codec = codec;
        this.auth = auth;
        this.clock = clock;
        this.poolDescription = poolDescription;
    }

    ApiResponse handle(ApiRequest request, RequestOutcome outcome) {
        outcome.method = request.method();
        try {
            return route(request, outcome);
        } catch (ApiError e) {
            outcome.error = e.code();
            return ApiResponse.error(e);
        } catch (NoFreeSlotException e) {
            return unavailable(outcome, "no_free_slot", e);
        } catch (LeaseStoreUnavailableException e) {
            return unavailable(outcome, "store_unavailable", e);
        } catch (ClockBehindException e) {
            return unavailable(outcome, "clock_behind", e);
        } catch (ClockSkewException e) {
            return unavailable(outcome, "clock_skew", e);
        } catch (IdUnavailableException e) {
            return unavailable(outcome, "unavailable", e);
        } catch (RuntimeException e) {
            outcome.error = "internal";
            outcome.failure = e;
            return ApiResponse.error(500, "internal", "internal error; it is logged under request id "
                    + (request.requestId() == null ? "(none)" : request.requestId()), Map.of());
        } finally {
            outcome.slot = generator.currentLease().map(Lease::slot).orElse(null);
        }
    }

    private ApiResponse route(ApiRequest request, RequestOutcome outcome) {
        String path = request.path();
        if (path.length() > 1 && path.endsWith("/")) {
            // Else "/ids/" would read as an empty ID (400) and "POST /leases/" as a renewal (405).
            String meant = path.replaceAll("/+$", "");
            throw ApiError.notFound("no route " + shortened(path) + " (no trailing slash: did you mean "
                    + shortened(meant.isEmpty() ? "/" : meant) + "?); the routes are " + ROUTES);
        }
        if (path.equals("/ids")) {
            outcome.route = Route.IDS;
            allow(request, "GET", "POST");
            return ids(request, outcome);
        }
        if (path.startsWith("/ids/") && path.indexOf('/', 5) < 0) {
            outcome.route = Route.DECODE;
            allow(request, "GET");
            return decode(path.substring(5));
        }
        if (path.equals("/leases")) {
            outcome.route = Route.LEASES;
            allow(request, "POST");
            auth.check(request);
            return acquire(request, outcome);
        }
        if (path.startsWith("/leases/") && path.indexOf('/', 8) < 0) {
            outcome.route = Route.LEASE;
            allow(request, "PUT", "DELETE");
            auth.check(request);
            Slot slot = slot(path.substring(8));
            return request.method().equals("PUT") ? renew(slot, request, outcome) : release(slot, request, outcome);
        }
        if (path.equals("/health")) {
            outcome.route = Route.HEALTH;
            allow(request, "GET");
            return health();
        }
        throw ApiError.notFound("no route " + shortened(request.path()) + "; the routes are " + ROUTES);
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
        return ApiResponse.json(200, new JsonBuilder(new StringBuilder(ids.length * 22 + 16)).idStrings("ids", ids).end());
    }

    private ApiResponse decode(String text) {
        SnowflakeId id;
        try {
            id = codec.parse(text);
        } catch (InvalidIdException e) {
            throw ApiError.badRequest("invalid_id", e.getMessage());
        }
        return ApiResponse.json(200, new JsonBuilder()
                .field("id", Long.toString(id.value()))
                .field("timestamp", id.unixMillis())
                .field("time", id.instant().toString())
                .field("datacenter", id.datacenter())
                .field("machine", id.machine())
                .field("sequence", id.sequence())
                .end());
    }

    private ApiResponse acquire(ApiRequest request, RequestOutcome outcome) {
        String holder = LeaseRequestBody.holder(request.body()).orElse("lease-api");
        Lease lease = leases.acquire(holder);
        outcome.leases.acquired(LeaseHolder.AGENTS);
        return ApiResponse.json(201, LeaseJson.write(lease));
    }

    private ApiResponse renew(Slot slot, ApiRequest request, RequestOutcome outcome) {
        LeaseRequestBody.Claim claim = LeaseRequestBody.claim(request.body());
        try {
            Lease renewed = leases.renew(slot, claim.owner(), claim.fence());
            outcome.leases.renewed(LeaseHolder.AGENTS);
            return ApiResponse.json(200, LeaseJson.write(renewed));
        } catch (LeaseLostException e) {
            outcome.leases.lost(LeaseHolder.AGENTS);
            throw lost(slot, e);
        }
    }

    private ApiResponse release(Slot slot, ApiRequest request, RequestOutcome outcome) {
        LeaseRequestBody.Release release = LeaseRequestBody.release(request.body(), codec);
        try {
            leases.release(slot, release.claim().owner(), release.claim().fence(), release.lastIssued());
            return ApiResponse.noContent();
        } catch (LeaseLostException e) {
            outcome.leases.lost(LeaseHolder.AGENTS);
            throw lost(slot, e);
        }
    }

    private static ApiError lost(Slot slot, LeaseLostException e) {
        return new ApiError(409, "lease_lost", "slot " + slot.index() + " (" + slot + ") is not held with this owner token and fence: "
                + e.getMessage() + "; stop issuing from it and lease a new slot with POST /leases");
    }

    private ApiResponse health() {
        Optional<Lease> lease = generator.currentLease();
        long now = clock.millis();
        return ApiResponse.json(200, new JsonBuilder()
                .field("status", "ok")
                .field("version", Version.CURRENT)
                .field("slot", lease.map(l -> l.slot().toString()).orElse(null))
                .field("leaseMillisLeft", lease.map(l -> l.window().remainingMillis(now)).orElse(null))
                .end());
    }

    /** A slot number in the path: 0 to 1023 and in this deployment's pool, else there is no such lease. */
    private Slot slot(String text) {
        String allowed = "a slot is a whole number from 0 to " + (Slot.COUNT - 1)
                + " (datacenter * 32 + machine) in this function's pool (" + poolDescription + ")";
        if (text.isEmpty() || text.length() > 4 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw ApiError.notFound("no lease '" + shortened(text) + "': " + allowed);
        }
        int index = Integer.parseInt(text);
        if (index >= Slot.COUNT) {
            throw ApiError.notFound("no lease " + index + ": " + allowed);
        }
        Slot slot = Slot.ofIndex(index);
        SlotPool pool = leases.pool();
        if (!pool.contains(slot)) {
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
        throw new ApiError(405, "method_not_allowed", "method " + shortened(request.method()) + " is not allowed on "
                + shortened(request.path()) + "; allowed: " + allowed, Map.of("Allow", allowed));
    }

    /**
     * A 503 with a fixed message per code: the exception's own message names tables, endpoints
     * and AWS error text, which is the operators' business, so it goes to the request log only.
     */
    private static ApiResponse unavailable(RequestOutcome outcome, String code, IdUnavailableException e) {
        outcome.error = code;
        outcome.failure = e;
        long seconds = Math.max(1, (e.retryAfterMillis() + 999) / 1000);
        return ApiResponse.error(503, code, UNAVAILABLE.get(code) + "; retry after " + seconds + " s",
                Map.of("Retry-After", Long.toString(seconds)));
    }

    private static String shortened(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }
}
