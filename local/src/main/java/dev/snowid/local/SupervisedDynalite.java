package dev.snowid.local;

import dev.snowid.dynalite.Dynalite;
import dev.snowid.dynalite.EngineCredential;
import dev.snowid.dynalite.TemporaryFolder;
import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lease.LeaseTerms;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * The local runner's engine: dynalite with its tables on disk in a temporary folder, watched by
 * one thread. When the process dies (dynalite 4.0.0 exits when a client drops a half-sent
 * request) it is started again on the same port and the same tables, so the handler's endpoint
 * stays valid and every row survives.
 *
 * <p>After every lease-API request (before its answer goes out), every {@value #CHECK_MILLIS} ms,
 * and right after a restart, the lease rows are compared with the ones seen last
 * ({@link LeaseCensus}). If rows were lost, the table is <em>quarantined</em>:
 * nothing is handed out until every lease it can have granted has run out (one lease duration
 * plus the tolerated clock skew after the loss, or the latest expiry seen, whichever is later);
 * only then may a slot start again from floor 0 without meeting a holder that still issues.
 *
 * <p>Only the runner may talk to it: the engine answers only requests that show a secret drawn
 * for this run ({@link EngineCredential}, in the folder, which only this user can read), and
 * every client here sends it ({@link #client()}).
 *
 * <p>{@link #close()} stops the process and deletes the folder. If this JVM dies without closing
 * (kill -9), the child script notices, exits and deletes the folder itself.
 */
final class SupervisedDynalite implements AutoCloseable {

    static final long CHECK_MILLIS = 500;
    private static final long RESTART_PAUSE_MILLIS = 200;
    private static final long MAX_RESTART_PAUSE_MILLIS = 5_000;
    private static final Duration CENSUS_ATTEMPT_TIMEOUT = Duration.ofSeconds(30);

    private final Path install;
    private final TemporaryFolder folder;
    private final Path tables;
    private final Path log;
    private final EngineCredential credential;
    private final int port;
    private final String table;
    private final LeaseTerms terms;
    private final PrintStream out;
    private final DynamoDbClient client;
    private final Thread supervisor;

    private volatile Dynalite engine;
    private volatile EngineStatus status = EngineStatus.SERVING;
    private volatile boolean closing;
    /** The rows seen last; guarded by {@code this} (see {@link #check()}). */
    private LeaseCensus lastSeen = LeaseCensus.EMPTY;
    private volatile long restartBegan;

    private SupervisedDynalite(Path install, TemporaryFolder folder, EngineCredential credential, Dynalite engine, DynamoDbClient client,
                               String table, LeaseTerms terms, PrintStream out) {
        this.install = install;
        this.folder = folder;
        this.tables = folder.path().resolve("tables");
        this.log = folder.path().resolve("dynalite.log");
        this.credential = credential;
        this.engine = engine;
        this.port = engine.endpoint().getPort();
        this.table = table;
        this.terms = terms;
        this.out = out;
        this.client = client;
        this.supervisor = new Thread(this::supervise, "snowid-local-engine");
        supervisor.setDaemon(true);
    }

    /**
     * Starts dynalite on a free port with its tables in a new temporary folder, creates the lease
     * table there, and starts watching it.
     */
    static SupervisedDynalite start(Path install, String table, LeaseTerms terms, PrintStream out) {
        TemporaryFolder folder = TemporaryFolder.create("snowid-local-");
        Dynalite engine = null;
        DynamoDbClient client = null;
        try {
            EngineCredential credential = EngineCredential.create(folder.path());
            for (int attempt = 0; engine == null; attempt++) {
                try {
                    engine = Dynalite.onDisk(install, folder.path(), folder.path().resolve("tables"),
                            Dynalite.freeLoopbackPort(), folder.path().resolve("dynalite.log"), credential);
                } catch (Dynalite.PortTakenException e) {
                    if (attempt == 2) {
                        throw e;
                    }
                }
            }
            // Patient: a timed-out attempt drops its request half-sent, which is what makes dynalite 4.0.0 exit.
            client = clientFor(engine.endpoint(), credential).attemptTimeout(CENSUS_ATTEMPT_TIMEOUT).maxAttempts(1).build();
            LeaseTable.createIfMissing(client, table);
            SupervisedDynalite supervised = new SupervisedDynalite(install, folder, credential, engine, client, table, terms, out);
            out.println("snowid local: dynalite (pid " + engine.pid() + ") on " + engine.endpoint() + ", tables on disk in "
                    + supervised.tables + "; it answers only this runner (" + EngineCredential.HEADER + ": the secret in "
                    + credential.file() + ")");
            supervised.supervisor.start();
            return supervised;
        } catch (RuntimeException e) {
            if (client != null) {
                client.close();
            }
            if (engine != null) {
                engine.close();
            }
            folder.close();
            throw e;
        }
    }

    /** The settings of an SDK client that reaches this engine: the handlers' lease stores use them. */
    LeaseTableClient.Builder client() {
        return clientFor(endpoint(), credential);
    }

    private static LeaseTableClient.Builder clientFor(URI endpoint, EngineCredential credential) {
        return LeaseTableClient.builder().endpoint(endpoint).interceptor(new EngineCredentialHeader(credential));
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The folder the tables, the log and the child script live in; gone after {@link #close()}. */
    Path folder() {
        return folder.path();
    }

    EngineStatus status() {
        return status;
    }

    private void supervise() {
        while (!closing) {
            try {
                Dynalite current = engine;
                if (current.awaitExit(CHECK_MILLIS)) {
                    restart(current);
                }
                if (!closing) {
                    check();
                }
            } catch (InterruptedException stop) {
                return;
            } catch (RuntimeException unexpected) {
                out.println("snowid local: watching dynalite failed (" + unexpected + "); trying again");
                pause(RESTART_PAUSE_MILLIS);
            }
        }
    }

    private void restart(Dynalite dead) throws InterruptedException {
        restartBegan = System.nanoTime();
        String why = "dynalite (pid " + dead.pid() + ") exited (" + dead.exitReport() + ")";
        if (!status.quarantined()) { // a quarantine outlasts any restart
            status = EngineStatus.restarting("the local engine stopped and is being restarted: " + why, System.currentTimeMillis());
        }
        out.println("snowid local: " + why + "; restarting it on " + endpoint() + " with its tables in " + tables);
        dead.close();
        long pause = RESTART_PAUSE_MILLIS;
        while (!closing) {
            try {
                Dynalite next = Dynalite.onDisk(install, folder.path(), tables, port, log, credential);
                if (closing) {
                    next.close();
                    return;
                }
                engine = next;
                return;
            } catch (IllegalStateException notYet) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException("closing");
                }
                out.println("snowid local: restarting dynalite failed (" + notYet.getMessage() + "); trying again in "
                        + pause + " ms");
                Thread.sleep(pause);
                pause = Math.min(pause * 2, MAX_RESTART_PAUSE_MILLIS);
            }
        }
    }

    /**
     * After a lease-API request (the lease lane runs this before each answer) the rows are compared before its answer goes out, so every lease
     * another process is told about is one the runner has seen, and its loss will be noticed.
     * The runner's own renewals on {@code /ids} are left to the periodic check: a scan per ID
     * request would double its latency, and a lost table is noticed either way (it is gone).
     */
    void recount() {
        if (status.serving()) {
            check();
        }
    }

    /** Compares the rows with the ones seen last; quarantines the table if any were lost. */
    private synchronized void check() {
        long now = System.currentTimeMillis();
        EngineStatus current = status;
        if (current.quarantined()) {
            if (now >= current.retryAt()) {
                endQuarantine();
            }
            return;
        }
        LeaseCensus census;
        try {
            census = LeaseCensus.take(client, table);
        } catch (ResourceNotFoundException gone) {
            quarantine(List.of("the lease table '" + table + "' is gone"));
            return;
        } catch (SdkException unreachable) {
            return; // The engine is stopping or starting: the next round (or its restart) settles it.
        }
        List<String> losses = census.lossesSince(lastSeen);
        if (!losses.isEmpty()) {
            quarantine(losses);
            return;
        }
        lastSeen = census;
        if (!current.serving()) {
            status = EngineStatus.SERVING;
            out.printf("snowid local: dynalite is back (pid %d) after %d ms with every lease row it had (%d); serving again%n",
                    engine.pid(), (System.nanoTime() - restartBegan) / 1_000_000, census.rows());
        }
    }

    private void quarantine(List<String> losses) {
        long now = System.currentTimeMillis();
        long until = Math.max(now + terms.leaseMillis(), lastSeen.latestExpiry()) + terms.maxClockSkewMillis();
        String reason = "the local lease table lost rows (" + String.join("; ", losses) + "); to keep IDs unique, no ID"
                + " or lease is handed out until " + Instant.ofEpochMilli(until) + ", when every lease it held has run out";
        status = EngineStatus.quarantined(reason, until);
        out.println("snowid local: " + reason);
    }

    private void endQuarantine() {
        try {
            LeaseTable.createIfMissing(client, table);
            lastSeen = LeaseCensus.take(client, table);
        } catch (SdkException | IllegalStateException notYet) {
            return; // Tried again next round.
        }
        status = EngineStatus.SERVING;
        out.println("snowid local: every lease of the lost rows has run out; serving again on " + lastSeen.rows() + " lease rows");
    }

    /** Stops watching, stops dynalite and deletes the folder with its tables. */
    @Override
    public void close() {
        closing = true;
        supervisor.interrupt();
        try {
            supervisor.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        engine.close();
        client.close();
        folder.close();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** For the ready line: no port (the start-up line has it, with how to reach the engine). */
    @Override
    public String toString() {
        return "the runner's own dynalite (tables on disk in " + folder + ", restarted if it dies)";
    }
}
