package dev.snowid.lambda;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaRuntime;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import dev.snowid.WallClock;
import dev.snowid.internal.WarningCode;
import dev.snowid.lambda.api.LeaseRouteAuth;
import dev.snowid.lambda.api.PoolView;
import dev.snowid.lambda.api.SnowidApi;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.region.RegionalStack;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.PoolParts;
import dev.snowid.lambda.snapstart.Priming;
import dev.snowid.lambda.snapstart.SnapStartHooks;
import dev.snowid.lambda.telemetry.LeaseActivity;
import dev.snowid.lambda.telemetry.LeaseHolder;
import dev.snowid.lambda.telemetry.LeaseMeter;
import dev.snowid.lambda.telemetry.MeteredLeaseStore;
import dev.snowid.lambda.telemetry.PoolPart;
import dev.snowid.lambda.telemetry.RequestLog;
import dev.snowid.lambda.telemetry.StreamLogger;
import dev.snowid.lease.LeaseSource;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.protocol.LeaseAudit;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.ClaimRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.crac.Core;

/**
 * The Lambda function: {@code dev.snowid.lambda.SnowidHandler::handleRequest}, behind API
 * Gateway (HTTP API payload 2.0 or REST API payload 1.0; the answer matches the event).
 *
 * <p>One instance per execution environment, holding at most one lease. Thread-safe: on Lambda
 * Managed Instances one environment calls {@link #handleRequest} from many threads at once, and
 * they share the one generator and its lease; each request's metrics are its thread's ({@link LeaseMeter}).
 * Init (the constructor)
 * reads the settings and builds the DynamoDB client, and nothing more: no network call, no
 * random draw, no lease. The lease is taken on the first {@code /ids} request, renewed on the
 * request path, and released before a SnapStart checkpoint and forgotten after every restore
 * ({@link SnapStartHooks}).
 *
 * <p>The lease routes ({@code /leases}) take a bearer secret (see {@link LeaseRouteAuth}); a
 * template can also put API Gateway IAM authorization in front of them.
 */
public final class SnowidHandler implements RequestStreamHandler, AutoCloseable {

    /** The caller on the audit lines of this environment's own lease. */
    static final String OWN_LEASE_CALLER = "this function environment (/ids)";
    /** The request id of SnapStart priming's events, in the answers they get (the 500 names it). */
    private static final String PRIMING_REQUEST_ID = "priming";

    private final SnowidApi api;
    private final LeasedGenerator generator;
    private final RequestLog log;
    private final LeaseStore store;
    /** Counts each request's lease outcomes, from the events of the generator and the lease routes. */
    private final LeaseMeter meter;
    /** Set at init and after every SnapStart restore; the first request takes it. */
    private final AtomicBoolean coldStart = new AtomicBoolean(true);
    /** Held here: a CRaC context need not keep its resources reachable by itself. */
    private final SnapStartHooks snapStartHooks;
    /** The claim registry's guard and view; unguarded for a lone stack. */
    private final RegionalStack region;

    /** The Lambda runtime's entry: settings from the environment, the lease table over the SDK. */
    public SnowidHandler() {
        this(builder(FunctionSettings.fromEnvironment()));
    }

    private SnowidHandler(Builder built) {
        FunctionSettings settings = built.settings;
        WallClock clock = built.clock;
        this.store = built.store != null ? built.store
                : DynamoDbLeaseStore.create(settings.table(), FunctionSettings.TABLE, settings.dynamoDbEndpoint(), WallClock.SYSTEM);
        this.meter = new LeaseMeter();
        this.log = built.logOut == null ? new RequestLog(LambdaRuntime.getLogger(), System.out, settings, clock::millis)
                : new RequestLog(new StreamLogger(built.logOut), built.logOut, settings, clock::millis);
        for (String warning : settings.warnings()) { // each [unknown_setting]
            log.event(LogLevel.WARN, warning, null);
        }
        PoolParts parts = settings.poolParts();
        this.region = RegionalStack.of(settings.region(), parts.whole(), store,
                built.markers != null ? built.markers : store instanceof DynamoDbLeaseStore table ? table.claimMarkers() : null,
                built.registry, clock);
        // Metered beneath the pools: each lease-table call, and each Scan's view of every part.
        LeaseStore metered = new MeteredLeaseStore(store, meteredParts(parts), clock, meter);
        // With no slot kept for agents the lease routes grant nothing (SnowidApi); the source is never asked.
        PooledLeaseSource forAgents = new PooledLeaseSource(metered, parts.agents().orElse(parts.function()), settings.leaseTerms(), clock,
                settings.holder()).guardedBy(region.guard());
        LeaseSource forFunction = built.ownLeases != null ? built.ownLeases
                : parts.split() ? new PooledLeaseSource(metered, parts.function(), settings.leaseTerms(), clock, settings.holder())
                        .guardedBy(region.guard())
                : forAgents;
        String holder = settings.holder();
        this.generator = LeasedGenerator.builder(forFunction, settings.leaseTerms(), clock, settings.codec())
                .events(meter.counting(LeaseHolder.FUNCTION,
                        LeaseAudit.events(line -> log.audit(line.holder(holder).caller(OWN_LEASE_CALLER)))))
                .build();
        this.api = new SnowidApi(generator, forAgents, settings.codec(),
                LeaseRouteAuth.of(settings), clock,
                PoolView.of(settings, store, clock, region.view()),
                line -> {
                    log.audit(line);
                    meter.routeOutcome(line);
                }, settings.role());
        Priming priming = new Priming(event -> region.view().withoutRegistry(() -> api.answer(event, PRIMING_REQUEST_ID)), store);
        this.snapStartHooks = new SnapStartHooks(generator, store, region, log, coldStart, priming);
        Core.getGlobalContext().register(snapStartHooks);
    }

    /** A handler with {@code settings}; the rest as the Lambda runtime's, unless set. */
    public static Builder builder(FunctionSettings settings) {
        return new Builder(settings);
    }

    /** The parts whose occupancy the metrics report: the function's and the agents' when split, else the shared pool. */
    private static Map<PoolPart, SlotPool> meteredParts(PoolParts parts) {
        if (!parts.split()) {
            return Map.of(PoolPart.SHARED, parts.whole());
        }
        Map<PoolPart, SlotPool> metered = new EnumMap<>(PoolPart.class);
        metered.put(PoolPart.FUNCTION, parts.function());
        parts.agents().ifPresent(agents -> metered.put(PoolPart.AGENTS, agents));
        return metered;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        long started = System.nanoTime();
        boolean cold = coldStart.getAndSet(false);
        LeaseActivity leases = meter.begin();
        try {
            SnowidApi.Answer answer = api.answer(input.readAllBytes(), context == null ? null : context.getAwsRequestId());
            output.write(answer.bytes());
            output.flush();
            log.request(answer.outcome(), leases, System.nanoTime() - started, context, cold);
        } finally {
            meter.end();
        }
    }

    /** Releases this environment's lease, if it holds one: the local runner's Ctrl-C, tests. */
    @Override
    public void close() {
        try {
            generator.release();
        } catch (RuntimeException e) {
            log.event(LogLevel.WARN, WarningCode.LEASE_RELEASE_FAILED.tag("lease not released on close; it runs out by itself"), e);
        }
        for (AutoCloseable closeable : new AutoCloseable[] {store instanceof AutoCloseable table ? table : null, region}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception e) {
                log.event(LogLevel.WARN, WarningCode.CLOSE_FAILED.tag("lease store or claim registry did not close cleanly"), e);
            }
        }
    }

    /** The SnapStart hooks, for tests that play checkpoint and restore. */
    SnapStartHooks snapStartHooks() {
        return snapStartHooks;
    }

    /** Assembles a handler: the local runner, tests and benchmarks set what the Lambda runtime's leaves to the environment. */
    public static final class Builder {

        private final FunctionSettings settings;
        private LeaseStore store;
        private WallClock clock = WallClock.SYSTEM;
        private PrintStream logOut;
        private LeaseSource ownLeases;
        private ClaimRegistry registry;
        private ClaimMarkers markers;

        private Builder(FunctionSettings settings) {
            this.settings = settings;
        }

        /** The lease table; by default the one the settings name, over the SDK (its errors name the setting to fix). */
        public Builder store(LeaseStore store) {
            this.store = store;
            return this;
        }

        /**
         * The claim registry and the lease table's claim markers, when the settings name a registry;
         * by default the registry they name over the SDK, and the markers of the DynamoDB lease table.
         */
        public Builder claims(ClaimRegistry registry, ClaimMarkers markers) {
            this.registry = registry;
            this.markers = markers;
            return this;
        }

        /** The clock IDs are issued and leases timed by; by default the system's. */
        public Builder clock(WallClock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * Log lines and metric records go to {@code out} (benchmarks pass a null stream); by
         * default log lines go through the Lambda runtime's logger (stdout outside Lambda) and metrics to stdout.
         */
        public Builder logTo(PrintStream out) {
            this.logOut = out;
            return this;
        }

        /** Where this environment's own lease comes from, instead of the function's part of the pool: tests stand in a snapshot's. */
        Builder ownLeases(LeaseSource source) {
            this.ownLeases = source;
            return this;
        }

        public SnowidHandler build() {
            return new SnowidHandler(this);
        }
    }
}
