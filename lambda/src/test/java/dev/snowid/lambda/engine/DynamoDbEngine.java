package dev.snowid.lambda.engine;

import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.local.Dynalite;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
 * One engine serves the whole test JVM: started on first use, stopped when the test run ends.
 * With none of them, every test that asks fails, saying how to get one; none is skipped.
 *
 * <p>Use: {@code @ExtendWith(DynamoDbEngine.class)} and a {@link TestTable} parameter (a fresh
 * table per parameter), or {@link #newTable(String)} from anywhere (e.g. a benchmark).
 */
public final class DynamoDbEngine implements BeforeAllCallback, ParameterResolver {

    public static final String ENDPOINT_VARIABLE = "SNOWID_TEST_DYNAMODB_ENDPOINT";
    static final String LOCALSTACK_IMAGE = "localstack/localstack:4.4";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DynamoDbEngine.class);
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);

    private static Running running;
    private static IllegalStateException unavailable;

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

    /** A fresh lease table on the shared engine, named after {@code hint}. */
    public static TestTable newTable(String hint) {
        Running engine = shared();
        String name = ("snowid-test-" + hint.replaceAll("[^A-Za-z0-9_.-]", "-") + "-" + RUN + "-" + TABLES.incrementAndGet())
                .toLowerCase(Locale.ROOT);
        if (name.length() > 255) {
            name = name.substring(name.length() - 255);
        }
        LeaseTable.createIfMissing(engine.client(), name);
        engine.created.add(name);
        return new TestTable(name, engine.endpoint(), engine.client());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        shared();
        // The root store closes its values when the whole test run ends: one engine per run.
        context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(Stopper.class, key -> new Stopper(), Stopper.class);
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
            return new Running(ENDPOINT_VARIABLE + "=" + endpoint, endpoint, true, () -> { });
        }
        StringBuilder tried = new StringBuilder("no ").append(ENDPOINT_VARIABLE);
        if (dockerAvailable()) {
            LocalStackContainer localStack = new LocalStackContainer(DockerImageName.parse(LOCALSTACK_IMAGE))
                    .withServices(LocalStackContainer.Service.DYNAMODB);
            localStack.start();
            return new Running("LocalStack " + LOCALSTACK_IMAGE + " at " + localStack.getEndpoint(),
                    localStack.getEndpoint(), false, localStack::stop);
        }
        tried.append(", no Docker engine");
        try {
            Dynalite dynalite = Dynalite.start();
            return new Running("dynalite at " + dynalite.endpoint() + " (" + tried + ")", dynalite.endpoint(), false, dynalite::close);
        } catch (IllegalStateException noDynalite) {
            throw new IllegalStateException("No DynamoDB-compatible engine for the tests (" + tried + ", and dynalite: "
                    + noDynalite.getMessage() + "). Get one of: " + ENDPOINT_VARIABLE
                    + "=<endpoint URL> (real DynamoDB or compatible; AWS credentials from the usual chain),"
                    + " a running Docker engine (LocalStack via Testcontainers),"
                    + " or Node.js 18+ then `npm ci --prefix lambda/dynalite` from the repository root (installs dynalite).", noDynalite);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError unusable) {
            return false;
        }
    }

    /** The engine in use: a description for logs, its endpoint and a client for table set-up. */
    public static final class Running {

        private final String description;
        private final URI endpoint;
        private final boolean external;
        private final AutoCloseable stop;
        private final DynamoDbClient client;
        private final List<String> created = new CopyOnWriteArrayList<>();

        private Running(String description, URI endpoint, boolean external, AutoCloseable stop) {
            this.description = description;
            this.endpoint = endpoint;
            this.external = external;
            this.stop = stop;
            this.client = LeaseTableClient.builder().endpoint(Optional.of(endpoint))
                    .attemptTimeout(Duration.ofSeconds(10)).build();
        }

        public String description() {
            return description;
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
                if (running != null) {
                    Running stopping = running;
                    running = null;
                    stopping.stop();
                }
            }
        }
    }
}
