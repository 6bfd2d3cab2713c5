package dev.snowid.testing.engine;

import dev.snowid.dynalite.Dynalite;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Gives tests a real DynamoDB-compatible engine, never a mock, the first of:
 * <ol>
 *   <li>the endpoint in {@value #ENDPOINT_VARIABLE} (real DynamoDB or anything compatible);</li>
 *   <li>LocalStack through Testcontainers, when a Docker engine answers;</li>
 *   <li>dynalite, installed by the Maven build and started by {@link Dynalite}.</li>
 * </ol>
 * and, for the suites marked {@link OnEveryEngine}, also {@link #moto() moto} (a second engine
 * written independently of dynalite: where the two disagree, one of them differs from DynamoDB).
 * One engine of each kind serves the whole test JVM: started on first use, stopped when the
 * test run ends. With none of them, every test that asks fails, saying how to get one; none is skipped.
 *
 * <p>Use: {@code @ExtendWith(DynamoDbEngine.class)} and a {@link TestTable} parameter (a fresh
 * table per parameter), or {@link #newTable(String)} from anywhere (e.g. a benchmark);
 * {@code @OnEveryEngine} to run a class once per engine.
 */
public final class DynamoDbEngine implements BeforeAllCallback, ParameterResolver {

    public static final String ENDPOINT_VARIABLE = "SNOWID_TEST_DYNAMODB_ENDPOINT";
    static final String LOCALSTACK_IMAGE = "localstack/localstack:4.4";
    /**
     * Why suites that race writers do not run on moto. DynamoDB documents UpdateItem as atomic
     * whatever the concurrency (one of two racing conditional writes fails); moto's server runs
     * requests on parallel threads and checks a condition and applies the update without a lock
     * in between. Measured with moto 5.2.1: 32 writers racing {@code attribute_not_exists} on one
     * new item, 20 rounds: in some rounds two writers both succeeded (dynalite: never).
     */
    public static final String MOTO_RACES = "moto's server (5.2.1) does not isolate concurrent conditional writes to the same item"
            + " (two racing writers can both succeed), while DynamoDB applies each UpdateItem atomically";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DynamoDbEngine.class);
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    private static Running running;
    private static IllegalStateException unavailable;
    private static Running moto;

    /** The engine, started on first call; throws, saying how to get one, when there is none. */
    public static synchronized Running shared() {
        if (running != null) {
            return running;
        }
        if (unavailable != null) {
            throw unavailable; // Starting again would fail the same way, only slower.
        }
        try {
            running = start();
        } catch (IllegalStateException none) {
            unavailable = none;
            throw none;
        }
        System.out.println("[snowid] DynamoDB engine for tests: " + running.description());
        return running;
    }

    /**
     * moto's server, started on first call; throws, saying how to install it, when
     * {@code moto_server} is not on PATH.
     */
    public static synchronized Running moto() {
        if (moto == null) {
            MotoServer server = MotoServer.start();
            moto = new Running("moto", server + " (" + MotoServer.find().orElseThrow() + ")", server.endpoint(), false, server::close);
            // moto loads a service's backend on its first request: take that time here, not in a test's short timeout.
            moto.client().listTables();
            System.out.println("[snowid] DynamoDB engine for tests: " + moto.description());
        }
        return moto;
    }

    /** A fresh lease table on the shared engine, named after {@code hint}. */
    public static TestTable newTable(String hint) {
        return shared().newTable(hint);
    }

    /** Stops the engines when the whole test run ends (the root store closes its values then). */
    static void stopAtTheEnd(ExtensionContext context) {
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Stopper.class, key -> new Stopper(), Stopper.class);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        shared();
        stopAtTheEnd(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestTable.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        String owner = context.getTestMethod().map(m -> m.getName())
                .orElseGet(() -> context.getRequiredTestClass().getSimpleName());
        return newTable(owner);
    }

    private static Running start() {
        String configured = System.getenv(ENDPOINT_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            URI endpoint = URI.create(configured.trim());
            return new Running("endpoint", ENDPOINT_VARIABLE + "=" + endpoint, endpoint, true, () -> { });
        }
        StringBuilder tried = new StringBuilder("no ").append(ENDPOINT_VARIABLE);
        if (dockerAvailable()) {
            LocalStackContainer localStack = new LocalStackContainer(DockerImageName.parse(LOCALSTACK_IMAGE))
                    .withServices(LocalStackContainer.Service.DYNAMODB);
            localStack.start();
            return new Running("LocalStack", "LocalStack " + LOCALSTACK_IMAGE + " at " + localStack.getEndpoint(),
                    localStack.getEndpoint(), false, localStack::stop);
        }
        tried.append(", no Docker engine");
        try {
            Dynalite dynalite = Dynalite.start();
            return new Running("dynalite", "dynalite at " + dynalite.endpoint() + " (" + tried + ")", dynalite.endpoint(), false, dynalite::close);
        } catch (IllegalStateException noDynalite) {
            throw new IllegalStateException("No DynamoDB-compatible engine for the tests (" + tried + ", and dynalite: "
                    + noDynalite.getMessage() + "). Get one of: " + ENDPOINT_VARIABLE
                    + "=<endpoint URL> (real DynamoDB or compatible; AWS credentials from the usual chain),"
                    + " a running Docker engine (LocalStack via Testcontainers),"
                    + " or Node.js 18+ then `npm ci --prefix dynalite` from the repository root (installs dynalite).", noDynalite);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError unusable) {
            return false;
        }
    }

    /** An engine in use: its name, a description for logs, its endpoint and a client for table set-up. */
    public static final class Running {

        private final String name;
        private final String description;
        private final URI endpoint;
        private final boolean external;
        private final AutoCloseable stop;
        private final DynamoDbClient client;
        private final List<String> created = new CopyOnWriteArrayList<>();

        private Running(String name, String description, URI endpoint, boolean external, AutoCloseable stop) {
            this.name = name;
            this.description = description;
            this.endpoint = endpoint;
            this.external = external;
            this.stop = stop;
            this.client = EngineClient.of(endpoint);
        }

        /** Short: {@code dynalite}, {@code moto}, {@code LocalStack} or {@code endpoint}. */
        public String name() {
            return name;
        }

        public String description() {
            return description;
        }

        /** A fresh lease table on this engine, named after {@code hint}. */
        public TestTable newTable(String hint) {
            String table = ("snowid-test-" + hint.replaceAll("[^A-Za-z0-9_.-]", "-") + "-" + RUN + "-" + TABLES.incrementAndGet())
                    .toLowerCase(Locale.ROOT);
            if (table.length() > 255) {
                table = table.substring(table.length() - 255);
            }
            LeaseTableLayout.create(client, table);
            created.add(table);
            return new TestTable(table, endpoint, client);
        }

        public URI endpoint() {
            return endpoint;
        }

        /** A client for set-up and checks (table creation, raw reads); shared: do not close it. */
        public DynamoDbClient client() {
            return client;
        }

        private void stop() throws Exception {
            if (external) {
                // Someone else's engine, perhaps real DynamoDB: leave no tables behind.
                for (String table : created) {
                    try {
                        client.deleteTable(d -> d.tableName(table));
                    } catch (RuntimeException alreadyGone) {
                        // Best effort.
                    }
                }
            }
            client.close();
            stop.close();
        }
    }

    private static final class Stopper implements AutoCloseable {
        @Override
        public void close() throws Exception {
            synchronized (DynamoDbEngine.class) {
                try {
                    if (running != null) {
                        Running stopping = running;
                        running = null;
                        stopping.stop();
                    }
                } finally {
                    if (moto != null) {
                        Running stopping = moto;
                        moto = null;
                        stopping.stop();
                    }
                }
            }
        }
    }
}
