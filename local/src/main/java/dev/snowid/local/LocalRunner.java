package dev.snowid.local;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.client.wire.BearerSecretStrength;
import dev.snowid.dynalite.DynaliteInstall;
import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * Runs the function on a laptop: its own dynalite, supervised, with the tables on disk in a
 * temporary folder ({@link SupervisedDynalite}; unless {@value FunctionSettings#DYNAMODB_ENDPOINT}
 * points at a table), the lease table created from the schema, and an HTTP server on
 * localhost:{@value LocalSettings#LOCAL_PORT} that turns each request into an API Gateway
 * payload 2.0 event for the very same {@link SnowidHandler} the Lambda runtime calls.
 *
 * <p>One request at a time, like one Lambda execution environment. Ctrl-C stops it: against a
 * configured table the lease is released; its own engine stops and its folder is deleted.
 */
public final class LocalRunner implements AutoCloseable {

    private final HttpServer server;
    private final SnowidHandler handler;
    /** Null when {@value FunctionSettings#DYNAMODB_ENDPOINT} names the table's engine. */
    private final SupervisedDynalite engine;
    private final URI endpoint;
    private final String table;
    private final Optional<String> madeUpSecret;
    /** The curl option that sends the secret, as a shell would need it typed. */
    private final String authorizationOption;
    private final String poolDescription;

    private LocalRunner(HttpServer server, SnowidHandler handler, SupervisedDynalite engine, URI endpoint, String table,
                        Optional<String> madeUpSecret, String authorizationOption, String poolDescription) {
        this.server = server;
        this.handler = handler;
        this.engine = engine;
        this.endpoint = endpoint;
        this.table = table;
        this.madeUpSecret = madeUpSecret;
        this.authorizationOption = authorizationOption;
        this.poolDescription = poolDescription;
    }

    public static void main(String[] args) {
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
        // The HTTP server's dispatcher thread keeps the JVM alive until Ctrl-C.
    }

    /**
     * Starts dynalite (or uses the configured endpoint), the table, the handler and the server.
     *
     * @param environment the variables of {@link FunctionSettings}, including its {@code LOCAL_*} ones
     */
    public static LocalRunner start(Map<String, String> environment) {
        Map<String, String> env = new HashMap<>(environment);
        int port = LocalSettings.port(env);
        FunctionSettings checked = FunctionSettings.from(env); // every setting checked before anything starts

        Optional<String> secret = LocalSettings.leaseSecret(env);
        if (secret.isPresent() && BearerSecretStrength.weakness(secret.get()) != null) {
            throw new InvalidSettingException(LocalSettings.LOCAL_LEASE_SECRET, BearerSecretStrength.weakness(secret.get()));
        }
        Optional<String> madeUp = Optional.empty();
        if (secret.isEmpty() && isUnset(env, FunctionSettings.LEASE_SECRET_SHA256)) {
            madeUp = Optional.of(drawSecret()); // drawn at run time; a local runner is never snapshotted
            secret = madeUp;
        }
        secret.ifPresent(s -> env.put(FunctionSettings.LEASE_SECRET_SHA256, sha256Hex(s)));
        String authorizationOption = madeUp.map(s -> "-H 'Authorization: Bearer " + s + "'")
                // Double quotes: the shell expands the variable the secret came from.
                .or(() -> LocalSettings.leaseSecret(environment)
                        .map(s -> "-H \"Authorization: Bearer $" + LocalSettings.LOCAL_LEASE_SECRET + "\""))
                // Only the hash was given: we cannot know the secret.
                .orElse("-H 'Authorization: Bearer <your secret>'");

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
        try {
            FunctionSettings settings = FunctionSettings.from(env);
            if (engine == null && isLoopback(endpoint)) {
                // A local engine starts empty; a real table is the template's to create.
                LeaseTable.createIfMissing(endpoint, settings.table());
            }
            SnowidHandler handler = new SnowidHandler(settings);
            // Made first: it sets the JDK server's request timeouts, which are read when the first server is made.
            java.util.concurrent.ExecutorService threads = RequestThreads.pool();
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
            GatewayBridge bridge = engine == null ? new GatewayBridge(handler) : new GatewayBridge(handler, engine::recountAfter);
            server.createContext("/", engine == null ? bridge : new EngineGate(bridge, engine::status));
            // Not the dispatcher thread: a client that sends half a request would hold it, and every other client with it.
            server.setExecutor(threads);
            server.start();
            return new LocalRunner(server, handler, engine, endpoint, settings.table(), madeUp, authorizationOption,
                    settings.poolDescription());
        } catch (IOException e) {
            closeQuietly(engine);
            throw new UncheckedIOException("could not listen on localhost:" + port + " (" + e.getMessage() + "); set "
                    + LocalSettings.LOCAL_PORT + " to a free port, or 0 for any", e);
        } catch (RuntimeException e) {
            closeQuietly(engine);
            throw e;
        }
    }

    /** The port the server listens on (the chosen one when {@value LocalSettings#LOCAL_PORT} was 0). */
    public int port() {
        return server.getAddress().getPort();
    }

    public URI baseUri() {
        return URI.create("http://localhost:" + port());
    }

    /** The secret made up for this run, when none was configured. */
    public Optional<String> madeUpSecret() {
        return madeUpSecret;
    }

    /** The ready line and how to try it, with a working curl command. */
    public void printReady(PrintStream out) {
        String base = "http://localhost:" + port();
        String store = engine != null ? engine.toString() : endpoint.toString();
        out.println("snowid local: ready on " + base + " — lease table '" + table + "' on " + store + ", slot pool " + poolDescription);
        out.println("  try:  curl -s '" + base + "/ids?count=3'");
        out.println("        curl -s " + base + "/ids/1724551110457221119");
        out.println("        curl -s " + base + "/health");
        out.println("        curl -s -X POST " + authorizationOption + " " + base + "/leases");
        madeUpSecret.ifPresent(s -> out.println("  lease secret (made up for this run; set " + LocalSettings.LOCAL_LEASE_SECRET
                + " to choose one): " + s));
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
        server.stop(0);
        if (server.getExecutor() instanceof java.util.concurrent.ExecutorService threads) {
            threads.shutdownNow();
        }
        if (engine != null) {
            closeQuietly(engine);
            System.out.println("snowid local: stopped; the lease table went with dynalite's folder " + engine.folder());
        } else {
            handler.close();
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
        try {
            return InetAddress.getByName(endpoint.getHost()).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
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
