package dev.snowid.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.snowid.WallClock;
import dev.snowid.client.wire.ErrorCode;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.PooledLeaseSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.crac.Core;

/**
 * The Lambda function: {@code dev.snowid.lambda.SnowidHandler::handleRequest}, behind API
 * Gateway (HTTP API payload 2.0 or REST API payload 1.0; the answer matches the event).
 *
 * <p>One instance per execution environment, holding at most one lease. Init (the constructor)
 * reads the settings and builds the DynamoDB client, and nothing more: no network call, no
 * random draw, no lease. The lease is taken on the first {@code /ids} request, renewed on the
 * request path, and released before a SnapStart checkpoint and forgotten after every restore
 * ({@link SnapStartHooks}).
 *
 * <p>The lease routes ({@code /leases}) take a bearer secret (see {@link LeaseRouteAuth}); a
 * template can also put API Gateway IAM authorization in front of them.
 */
public final class SnowidHandler implements RequestStreamHandler, AutoCloseable {

    private final SnowidApi api;
    private final LeasedGenerator generator;
    private final RequestLog log;
    private final WallClock clock;
    private final LeaseStore store;
    /** Held here: a CRaC context need not keep its resources reachable by itself. */
    private final SnapStartHooks snapStartHooks;

    /** The Lambda runtime's entry: settings from the environment, the lease table over the SDK. */
    public SnowidHandler() {
        this(FunctionSettings.fromEnvironment());
    }

    public SnowidHandler(FunctionSettings settings) {
        this(settings, leaseStore(settings), WallClock.SYSTEM);
    }

    /** The lease table the settings name, over the SDK; its errors name the setting to fix. */
    static DynamoDbLeaseStore leaseStore(FunctionSettings settings) {
        return DynamoDbLeaseStore.create(settings.table(), FunctionSettings.TABLE, settings.dynamoDbEndpoint(), WallClock.SYSTEM);
    }

    /** With a given store and clock: for the local runner's overrides, tests and benchmarks. */
    public SnowidHandler(FunctionSettings settings, LeaseStore store, WallClock clock) {
        this(settings, store, clock, System.out);
    }

    /** As above, with the request log going to {@code logOut} (benchmarks pass a null stream). */
    public SnowidHandler(FunctionSettings settings, LeaseStore store, WallClock clock, PrintStream logOut) {
        this(settings, store, poolOf(settings, store, clock), clock, logOut);
    }

    /** {@code generatorSource} is where this environment's own lease comes from; tests stand in a snapshot's. */
    SnowidHandler(FunctionSettings settings, LeaseStore store, LeaseSourcePair leases, WallClock clock, PrintStream logOut) {
        this.store = store;
        this.clock = clock;
        this.log = new RequestLog(logOut, settings.metrics());
        this.generator = new LeasedGenerator(leases.forGenerator(), settings.leaseTerms(), clock, settings.codec());
        this.api = new SnowidApi(generator, leases.pool(), settings.codec(),
                new LeaseRouteAuth(settings.leaseAuth(), settings.leaseSecretHashes()), clock, PoolView.of(settings, store, clock));
        this.snapStartHooks = new SnapStartHooks(generator, store, log);
        Core.getGlobalContext().register(snapStartHooks);
    }

    private static LeaseSourcePair poolOf(FunctionSettings settings, LeaseStore store, WallClock clock) {
        PoolParts parts = settings.poolParts();
        // With no slot kept for agents the lease routes grant nothing (SnowidApi); the source is never asked.
        PooledLeaseSource forAgents = new PooledLeaseSource(store, parts.agents().orElse(parts.function()), settings.leaseTerms(), clock,
                settings.holder());
        PooledLeaseSource forFunction = parts.split()
                ? new PooledLeaseSource(store, parts.function(), settings.leaseTerms(), clock, settings.holder())
                : forAgents;
        return new LeaseSourcePair(forAgents, forFunction);
    }

    /**
     * Where the lease routes grant from (the agents' part of the pool), and where this
     * environment's own generator leases from (the function's part; the same pool when shared).
     */
    record LeaseSourcePair(PooledLeaseSource pool, LeaseSource forGenerator) {
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        long started = System.nanoTime();
        RequestOutcome outcome = new RequestOutcome();
        PayloadFormat format = PayloadFormat.V2;
        String requestId = context == null ? null : context.getAwsRequestId();
        ApiResponse response;
        try {
            ApiRequest request = GatewayEvent.read(input.readAllBytes());
            format = request.format();
            if (requestId == null) {
                requestId = request.requestId();
            } else {
                request = request.withRequestId(requestId);
            }
            response = api.handle(request, outcome);
        } catch (ApiError e) {
            outcome.error = e.code();
            response = ApiResponse.error(e);
        } catch (RuntimeException e) {
            outcome.error = ErrorCode.INTERNAL.code();
            outcome.failure = e;
            response = ApiResponse.error(ErrorCode.INTERNAL, "internal error; it is logged under request id "
                    + (requestId == null ? "(none)" : requestId), Map.of());
        }
        output.write(GatewayResponse.write(response, format).getBytes(StandardCharsets.UTF_8));
        output.flush();
        log.write(outcome, response.status(), System.nanoTime() - started, requestId, clock.millis());
    }

    /** Releases this environment's lease, if it holds one: the local runner's Ctrl-C, tests. */
    @Override
    public void close() {
        try {
            generator.release();
        } catch (RuntimeException e) {
            log.event("close", "lease not released (" + e.getMessage() + "); it runs out by itself");
        }
        if (store instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                log.event("close", "lease store did not close cleanly: " + e.getMessage());
            }
        }
    }

    /** The SnapStart hooks, for tests that play checkpoint and restore. */
    SnapStartHooks snapStartHooks() {
        return snapStartHooks;
    }
}
