package dev.snowid.local;

import com.sun.net.httpserver.HttpHandler;
import dev.snowid.WallClock;
import dev.snowid.client.BearerSecretStrength;
import dev.snowid.dynalite.DynaliteInstall;
import dev.snowid.internal.WarningCode;
import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.api.LeaseRouteAuth;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.RegistryTable;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import dev.snowid.local.http.LocalHttpServer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the function on a laptop: its own dynalite, supervised, with the tables on disk in a
 * temporary folder ({@link SupervisedDynalite}; unless {@value FunctionSettings#DYNAMODB_ENDPOINT}
 * points at a table), the lease table created from the schema, and an HTTP server on
 * localhost:{@value LocalSettings#LOCAL_PORT} that turns each request into an API Gateway
 * payload 2.0 event for the very same {@link SnowidHandler} the Lambda runtime calls.
 *
 * <p>Like the template, two functions: the lease routes have their own handler, threads and
 * queue ({@link RouteLane}), so a flood of {@code /ids} never queues a renewal; each handler takes
 * one request at a time, like one Lambda execution environment. Unless
 * {@value FunctionSettings#AGENT_SLOTS} is set, the pool is split as the template splits it
 * ({@link LocalSettings#withPoolSplit}). Ctrl-C stops it: against a
 * configured table the lease is released; its own engine stops and its folder is deleted.
 */
public final class LocalRunner implements AutoCloseable {

    private final LocalHttpServer server;
    private final LaneDispatch dispatch;
    /** The ids lane's handler (it holds the runner's own lease), then the lease lane's (it holds none). */
    private final List<SnowidHandler> handlers;
    /** Null when {@value FunctionSettings#DYNAMODB_ENDPOINT} names the table's engine. */
    private final SupervisedDynalite engine;
    private final URI endpoint;
    private final String table;
    private final Optional<String> madeUpSecret;
    /** The curl option that sends the secret: its variable, never its value. */
    private final String authorizationOption;
    private final String poolDescription;
    /** The variables nobody in this process reads, one line each; main prints them before anything starts. */
    private final List<String> warnings;

    private LocalRunner(LocalHttpServer server, LaneDispatch dispatch, List<SnowidHandler> handlers, SupervisedDynalite engine, URI endpoint, String table,
                        Optional<String> madeUpSecret, String authorizationOption, String poolDescription, List<String> warnings) {
        this.server = server;
        this.dispatch = dispatch;
        this.handlers = handlers;
        this.engine = engine;
        this.endpoint = endpoint;
        this.table = table;
        this.madeUpSecret = madeUpSecret;
        this.authorizationOption = authorizationOption;
        this.poolDescription = poolDescription;
        this.warnings = warnings;
    }

    /** No argument: the runner. {@code registry}: a claim registry for runners acting as regions ({@link LocalRegistry}). */
    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("registry")) {
            LocalRegistry.main(System.getenv());
            return;
        }
        if (args.length > 0) {
            System.err.println("snowid local: unknown arguments " + String.join(" ", args) + "; give none to run the function, or"
                    + " 'registry' to start a claim registry for local regions");
            System.exit(2);
            return;
        }
        // Before anything starts: a typo such as SNOWID_PROT matters most when the port it meant to change is busy.
        LocalSettings.warnings(System.getenv()).forEach(warning -> System.out.println("snowid local: warning: " + warning));
        System.out.flush();
        LocalRunner runner;
        try {
            runner = start(System.getenv());
        } catch (InvalidSettingException e) {
            System.err.println("snowid local: " + e.getMessage());
            System.exit(2);
            return;
        } catch (RuntimeException e) {
            System.err.println("snowid local: could not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(runner::close, "snowid-local-shutdown"));
        runner.printReady(System.out);
        // The HTTP server's thread keeps the JVM alive until Ctrl-C.
    }

    /**
     * Starts dynalite (or uses the configured endpoint), the table, the handler and the server.
     *
     * @param environment the function's variables ({@link FunctionSettings}) and the runner's own ({@link LocalSettings})
     */
    public static LocalRunner start(Map<String, String> environment) {
        int port = LocalSettings.port(environment);
        Map<String, String> env = new HashMap<>(LocalSettings.withPoolSplit(environment));
        FunctionSettings checked = FunctionSettings.from(env, LocalSettings.VARIABLES); // every setting checked before anything starts

        Optional<String> secret = LocalSettings.leaseSecret(env);
        String weakness = secret.map(BearerSecretStrength::weakness).orElse(null);
        if (weakness != null) {
            throw new InvalidSettingException(LocalSettings.LOCAL_LEASE_SECRET, weakness);
        }
        Optional<String> madeUp = Optional.empty();
        if (secret.isEmpty() && isUnset(env, FunctionSettings.LEASE_SECRET_SHA256)) {
            madeUp = Optional.of(drawSecret()); // drawn at run time; a local runner is never snapshotted
            secret = madeUp;
        }
        secret.ifPresent(s -> env.put(FunctionSettings.LEASE_SECRET_SHA256, sha256Hex(s)));
        // The variable, never the value: a secret the user gave stays out of the output (the made-up one is
        // printed once, as the export that sets it). Only the hash was given: we cannot know the secret.
        String authorizationOption = secret.isPresent() ? "-H \"Authorization: Bearer $" + LocalSettings.LOCAL_LEASE_SECRET + "\""
                : "-H 'Authorization: Bearer <your secret>'";

        SupervisedDynalite engine = null;
        URI endpoint;
        if (isUnset(env, FunctionSettings.DYNAMODB_ENDPOINT)) {
            engine = SupervisedDynalite.start(DynaliteInstall.find(env, System.out), checked.table(), checked.leaseTerms(),
                    System.out);
            endpoint = engine.endpoint();
            env.put(FunctionSettings.DYNAMODB_ENDPOINT, endpoint.toString());
        } else {
            endpoint = URI.create(env.get(FunctionSettings.DYNAMODB_ENDPOINT));
        }
        List<SnowidHandler> handlers = new ArrayList<>(2);
        try {
            FunctionSettings settings = FunctionSettings.from(env, LocalSettings.VARIABLES);
            if (engine == null && isLoopback(endpoint)) {
                // A local engine starts empty; a real table is the template's to create.
                LeaseTable.createIfMissing(endpoint, settings.table());
            }
            // So is a local claim registry; in AWS infra/registry.yaml creates it. One run-local.sh registry started
            // answers only those who show its credential.
            Optional<RegistryCredential> registryCredential = RegistryCredential.from(env, settings.region());
            if (registryCredential.isPresent()) {
                registryCredential.get().createTableIfMissing();
            } else {
                settings.region().registryEndpoint().filter(RegistryCredential::isLoopback).ifPresent(registry ->
                        RegistryTable.createIfMissing(registry, settings.region().registryTable().orElseThrow()));
            }
            // Two handlers, as the template's two functions: each its own lock, threads and queue (RouteLane).
            Map<RouteLane, HttpHandler> lanes = new EnumMap<>(RouteLane.class);
            LeaseRouteAuth leaseAuth = null;
            for (RouteLane lane : RouteLane.values()) {
                // The function's variables only: the runner's own are not the function's business, and it warned about the rest.
                Map<String, String> laneEnv = LocalSettings.forFunction(env);
                laneEnv.put(FunctionSettings.ROLE, lane.role());
                FunctionSettings laneSettings = FunctionSettings.from(laneEnv);
                SnowidHandler.Builder builder = SnowidHandler.builder(laneSettings);
                DynamoDbLeaseStore store = null;
                if (engine != null) { // its own engine answers only clients that show its credential
                    store = DynamoDbLeaseStore.builder().table(laneSettings.table()).tableSetting(FunctionSettings.TABLE)
                            .client(engine.client()).build();
                    builder.store(store);
                }
                if (registryCredential.isPresent()) { // and so does a local registry
                    store = store != null ? store : DynamoDbLeaseStore.create(laneSettings.table(), FunctionSettings.TABLE,
                            laneSettings.dynamoDbEndpoint(), WallClock.SYSTEM);
                    builder.store(store).claims(registryCredential.get().registry(), store.claimMarkers());
                }
                SnowidHandler handler = builder.build();
                handlers.add(handler);
                if (lane == RouteLane.LEASES) {
                    leaseAuth = LeaseRouteAuth.of(laneSettings);
                }
                // Lease routes change rows for other processes: the engine recounts its rows after each, before answering.
                GatewayBridge bridge = engine != null && lane == RouteLane.LEASES
                        ? new GatewayBridge(handler, engine::recount) : new GatewayBridge(handler);
                lanes.put(lane, engine == null ? bridge : new EngineGate(bridge, engine::status));
            }
            LaneDispatch dispatch = new LaneDispatch(lanes, leaseAuth);
            LocalHttpServer server = LocalHttpServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                    GatewayBridge.MAX_EVENT_BYTES, dispatch);
            return new LocalRunner(server, dispatch, handlers, engine, endpoint, settings.table(), madeUp, authorizationOption,
                    settings.poolDescription() + "; " + guard(settings), LocalSettings.warnings(environment));
        } catch (IOException e) {
            handlers.forEach(SnowidHandler::close);
            closeQuietly(engine);
            String listen = "could not listen on localhost:" + port + " (" + e.getMessage() + "); set " + LocalSettings.LOCAL_PORT
                    + " to a free port, or 0 for any";
            throw new UncheckedIOException(e instanceof BindException ? WarningCode.PORT_IN_USE.tag(listen
                    + " (another runner, or another program, listens there: `lsof -i :" + port + "` names it)") : listen, e);
        } catch (RuntimeException e) {
            handlers.forEach(SnowidHandler::close);
            closeQuietly(engine);
            throw e;
        }
    }

    /** E.g. "region eu-local, guarded by the claim registry 'snowid-registry' on http://…", or "region local, unguarded". */
    private static String guard(FunctionSettings settings) {
        var region = settings.region();
        return "region " + region.claimant().region() + region.registryTable().map(table -> ", guarded by the claim registry '" + table
                + "' on " + region.registryEndpoint().map(URI::toString).orElse("DynamoDB")).orElse(", unguarded (no claim registry)");
    }

    /** The port the server listens on (the chosen one when {@value LocalSettings#LOCAL_PORT} was 0). */
    public int port() {
        return server.address().getPort();
    }

    public URI baseUri() {
        return URI.create("http://localhost:" + port());
    }

    /** Whether a lane's threads are all busy and its queue full (for tests). */
    boolean laneFull(RouteLane lane) {
        return dispatch.full(lane);
    }

    /** The secret made up for this run, when none was configured. */
    public Optional<String> madeUpSecret() {
        return madeUpSecret;
    }

    /** The variables nobody in this process reads: a typo keeps a default silently otherwise. */
    public List<String> warnings() {
        return warnings;
    }

    /** The ready line and how to try it, with a working curl command: at most six lines (the warnings came before start). */
    public void printReady(PrintStream out) {
        String base = "http://localhost:" + port();
        String store = engine != null ? engine.toString() : endpoint.toString();
        out.println("snowid local: ready on " + base + " — lease table '" + table + "' on " + store + ", slot pool " + poolDescription);
        out.println("  try:  curl -s '" + base + "/ids?count=3'");
        out.println("        curl -s " + base + "/ids/1724551110457221119");
        out.println("        curl -s -X POST " + authorizationOption + " " + base + "/leases");
        // The one place a secret is printed: one the runner made up, which the user cannot know otherwise.
        madeUpSecret.ifPresent(s -> out.println("  lease secret, made up for this run (set " + LocalSettings.LOCAL_LEASE_SECRET
                + " before starting to choose one):  export " + LocalSettings.LOCAL_LEASE_SECRET + "=" + s));
        out.println(engine != null ? "  Ctrl-C stops it; the lease table and its folder go with it."
                : "  Ctrl-C stops it and releases its lease.");
        out.flush();
    }

    /**
     * Stops taking requests. With its own engine, stops dynalite and deletes its folder: the
     * table and the lease in it go together. Against a configured endpoint, releases the lease:
     * that is what frees the slot there.
     */
    @Override
    public void close() {
        server.close();
        dispatch.shutdownNow();
        if (engine != null) {
            closeQuietly(engine);
            System.out.println("snowid local: stopped; the lease table went with dynalite's folder " + engine.folder());
        } else {
            handlers.forEach(SnowidHandler::close);
            System.out.println("snowid local: stopped");
        }
    }

    private static void closeQuietly(SupervisedDynalite engine) {
        if (engine != null) {
            engine.close();
        }
    }

    private static boolean isUnset(Map<String, String> env, String name) {
        String value = env.get(name);
        return value == null || value.isEmpty();
    }

    private static boolean isLoopback(URI endpoint) {
        return RegistryCredential.isLoopback(endpoint);
    }

    private static String drawSecret() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    static String sha256Hex(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
