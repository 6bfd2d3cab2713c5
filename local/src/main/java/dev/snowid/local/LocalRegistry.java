package dev.snowid.local;

import dev.snowid.dynalite.Dynalite;
import dev.snowid.dynalite.DynaliteInstall;
import dev.snowid.dynalite.EngineCredential;
import dev.snowid.dynalite.TemporaryFolder;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.dynamodb.RegistryTable;
import dev.snowid.lambda.settings.FunctionSettings;
import java.io.PrintStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A claim registry for local runners acting as regions ({@code run-local.sh registry}): dynalite
 * on a free loopback port with its tables in a temporary folder, answering only requests that show
 * a credential drawn for this run, as the runner's own engine does ({@link EngineCredential}, in a
 * file only this user can read). It prints the variables each runner needs, the credential's file
 * included ({@value LocalSettings#LOCAL_REGISTRY_CREDENTIAL_FILE}), never the credential itself.
 */
final class LocalRegistry implements AutoCloseable {

    static final String DEFAULT_TABLE = "snowid-registry";

    private final TemporaryFolder folder;
    private final Dynalite engine;
    private final EngineCredential credential;
    private final String table;

    private LocalRegistry(TemporaryFolder folder, Dynalite engine, EngineCredential credential, String table) {
        this.folder = folder;
        this.engine = engine;
        this.credential = credential;
        this.table = table;
    }

    /** Starts the engine and creates the registry table ({@value FunctionSettings#REGISTRY_TABLE}, or {@value #DEFAULT_TABLE}). */
    static LocalRegistry start(Map<String, String> env, PrintStream out) {
        String table = env.getOrDefault(FunctionSettings.REGISTRY_TABLE, "");
        table = table.isEmpty() ? DEFAULT_TABLE : table;
        TemporaryFolder folder = TemporaryFolder.create("snowid-registry-");
        Dynalite engine = null;
        try {
            EngineCredential credential = EngineCredential.create(folder.path());
            engine = Dynalite.onDisk(DynaliteInstall.find(env, out), folder.path(), folder.path().resolve("tables"),
                    Dynalite.freeLoopbackPort(), folder.path().resolve("dynalite.log"), credential);
            try (DynamoDbClient client = LeaseTableClient.builder().endpoint(engine.endpoint())
                    .interceptor(new EngineCredentialHeader(credential)).attemptTimeout(Duration.ofSeconds(5)).build()) {
                RegistryTable.createIfMissing(client, table);
            }
            return new LocalRegistry(folder, engine, credential, table);
        } catch (RuntimeException e) {
            if (engine != null) {
                engine.close();
            }
            folder.close();
            throw e;
        }
    }

    URI endpoint() {
        return engine.endpoint();
    }

    /** What it serves, then the one line of variables that points a runner at it. */
    void printReady(PrintStream out) {
        out.println("snowid local: claim registry '" + table + "' on " + endpoint() + " (dynalite pid " + engine.pid()
                + ", tables on disk in " + folder.path() + "); it answers only loopback clients showing the credential in "
                + credential.file());
        out.println("export " + FunctionSettings.REGISTRY_TABLE + "=" + table + " " + FunctionSettings.REGISTRY_ENDPOINT + "=" + endpoint()
                + " " + LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE + "=" + credential.file());
        out.println("  Ctrl-C stops it; its tables go with its folder.");
        out.flush();
    }

    /** Blocks until the engine exits by itself (it is not restarted: the runners then answer 503 until a new one). */
    void awaitExit() throws InterruptedException {
        while (!engine.awaitExit(60_000)) {
            // still serving
        }
    }

    String exitReport() {
        return engine.exitReport();
    }

    @Override
    public void close() {
        engine.close();
        folder.close();
    }

    static void main(Map<String, String> env) {
        LocalRegistry registry;
        try {
            registry = start(env, System.out);
        } catch (RuntimeException e) {
            System.err.println("snowid local: the claim registry could not start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(registry::close, "snowid-registry-shutdown"));
        registry.printReady(System.out);
        try {
            registry.awaitExit();
            System.err.println("snowid local: the claim registry's dynalite exited (" + registry.exitReport() + ")");
            System.exit(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
