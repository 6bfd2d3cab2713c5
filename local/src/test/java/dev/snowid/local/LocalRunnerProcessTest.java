package dev.snowid.local;

import static dev.snowid.local.RunnerProcess.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.dynalite.EngineCredential;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The local runner in its own JVM, started outside the repository (a temporary working
 * directory), driven over HTTP like a user would, and killed for real: the runner, its engine,
 * or the engine's data.
 */
class LocalRunnerProcessTest {

    /** Short leases, so that waiting for one to run out stays short; two slots. */
    private static final Map<String, String> SHORT_LEASES = Map.of("SNOWID_LEASE_MILLIS", "5000",
            "SNOWID_MAX_CLOCK_SKEW_MILLIS", "250", "SNOWID_DATACENTERS", "0", "SNOWID_MACHINES", "0-1");

    @TempDir
    Path anywhere;

    @Test
    void killMinus9OfTheRunnerTakesItsEngineAndItsFolderWithIt() throws Exception {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, Map.of())) {
            assertEquals(200, runner.send("GET", "/ids", false, null).statusCode());
            ProcessHandle engine = runner.engine();
            Path folder = runner.folder();
            assertTrue(Files.isDirectory(folder), folder + " holds the tables while the runner runs");

            runner.process().destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertTrue(runner.process().waitFor(10, TimeUnit.SECONDS));
            long killed = System.nanoTime();

            await(() -> !engine.isAlive(), Duration.ofSeconds(5), "dynalite (pid " + engine.pid() + ") exits after its runner was killed");
            await(() -> !Files.exists(folder), Duration.ofSeconds(5), "the orphaned engine deletes the runner's folder " + folder);
            System.out.printf("kill -9 of the runner: dynalite gone and folder deleted after %d ms%n",
                    (System.nanoTime() - killed) / 1_000_000);
        }
    }

    @Test
    void ctrlCStopsTheRunnerAndItsEngineAndDeletesTheFolder() throws Exception {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, Map.of())) {
            assertEquals(200, runner.send("GET", "/ids", false, null).statusCode());
            ProcessHandle engine = runner.engine();
            Path folder = runner.folder();

            // A terminal's Ctrl-C sends SIGINT to the whole foreground process group.
            Process ctrlC = new ProcessBuilder("kill", "-INT", Long.toString(runner.process().pid()), Long.toString(engine.pid()))
                    .inheritIO().start();
            assertEquals(0, ctrlC.waitFor());

            assertTrue(runner.process().waitFor(20, TimeUnit.SECONDS), "the runner stops on Ctrl-C");
            assertTrue(runner.output().contains("snowid local: stopped; the lease table went with dynalite's folder " + folder),
                    runner.output());
            assertFalse(runner.output().contains("restarting"), "Ctrl-C is no engine crash:\n" + runner.output());
            await(() -> !engine.isAlive(), Duration.ofSeconds(5), "dynalite stops with the runner");
            assertFalse(Files.exists(folder), folder + " is deleted when the runner stops");
        }
    }

    @Test
    void aKilledEngineIsRestartedOnItsTablesAndTheNextHolderOfTheSlotStartsAtTheOldExpiry() {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, SHORT_LEASES)) {
            long lastBefore = lastId(runner.send("GET", "/ids?count=10", false, null)); // the runner takes one slot
            JsonNode old = json(runner.send("POST", "/leases", true, "{\"holder\":\"old holder\"}")); // the other one
            long slot = number(old, "slot");
            long oldExpiry = number(old, "expiresAt");
            ProcessHandle engine = runner.engine();

            engine.destroyForcibly();
            long killed = System.nanoTime();
            await(() -> !engine.isAlive(), Duration.ofSeconds(5), "dynalite is killed");
            await(() -> runner.send("GET", "/ids", false, null).statusCode() == 200, Duration.ofSeconds(20),
                    "the runner serves IDs again");
            System.out.printf("engine killed: IDs served again after %d ms%n", (System.nanoTime() - killed) / 1_000_000);
            assertNotEquals(engine.pid(), runner.engine().pid(), "a new dynalite");
            runner.awaitOutput("dynalite is back (pid " + runner.engine().pid() + ")", Duration.ofSeconds(5));
            long firstAfter = lastId(runner.send("GET", "/ids?count=10", false, null));
            assertTrue(firstAfter > lastBefore, "IDs keep increasing across the restart: " + lastBefore + " then " + firstAfter);

            // The old holder never renews; once its lease ran out the slot is free again. The runner
            // keeps its own slot (it renews on /ids), so the slot handed out is the old holder's.
            JsonNode next = null;
            long deadline = oldExpiry + 15_000;
            while (next == null && System.currentTimeMillis() < deadline) {
                assertEquals(200, runner.send("GET", "/ids", false, null).statusCode(), runner::output);
                HttpResponse<String> lease = runner.send("POST", "/leases", true, "{\"holder\":\"next holder\"}");
                if (lease.statusCode() == 201) {
                    next = json(lease);
                } else {
                    assertEquals(503, lease.statusCode(), lease.body());
                    assertEquals("no_free_slot", json(lease).field("error").orElseThrow().asString(), lease.body());
                    pause(100);
                }
            }
            assertTrue(next != null, "the old holder's slot was not handed out again by " + deadline);
            assertEquals(slot, number(next, "slot"));
            assertTrue(number(next, "floor") >= oldExpiry, "the next holder's floor " + number(next, "floor")
                    + " is at or after the old holder's expiresAt " + oldExpiry + ": the row survived the restart");
            assertTrue(number(next, "fence") > number(old, "fence"));
        }
    }

    /**
     * Only the runner talks to its engine: a request without its credential (a plain curl, a
     * PutItem that would bypass the lease secret), from a web page, or with a name other than
     * loopback in its Host is refused with 403 before dynalite reads it, and no answer carries a
     * CORS header. The ready line does not name the engine's port.
     */
    @Test
    void theEngineAnswersOnlyItsRunner() throws IOException {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, Map.of())) {
            int port = runner.engineEndpoint().getPort();
            String ready = runner.output().lines().filter(line -> line.contains("ready on")).findFirst().orElseThrow();
            assertFalse(ready.contains(Integer.toString(port)), "the ready line names no engine port: " + ready);
            String credential = EngineCredential.HEADER + ": " + EngineCredential.read(runner.folder()).value() + "\r\n";
            String scan = "Content-Type: application/x-amz-json-1.0\r\nX-Amz-Target: DynamoDB_20120810.Scan\r\n"
                    + "Authorization: AWS4-HMAC-SHA256 Credential=x/20250101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0\r\n"
                    + "X-Amz-Date: 20250101T000000Z\r\nContent-Length: 29\r\nConnection: close\r\n\r\n{\"TableName\":\"snowid-leases\"}";
            String[][] refused = {
                    {"no credential", "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + scan},
                    {"a wrong credential", "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + EngineCredential.HEADER + ": 00\r\n" + scan},
                    {"a web page", "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: https://evil.example\r\n" + credential + scan},
                    {"a CORS preflight", "OPTIONS / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nOrigin: https://evil.example\r\n"
                            + "Access-Control-Request-Method: POST\r\nConnection: close\r\n\r\n"},
                    {"a rebound name", "POST / HTTP/1.1\r\nHost: evil.example:" + port + "\r\n" + credential + scan},
            };
            for (String[] request : refused) {
                RawHttp.Answer answer = RawHttp.exchange(port, request[1]);
                assertEquals(403, answer.status(), request[0] + ": " + answer.text());
                assertTrue(answer.body().contains("AccessDeniedException"), request[0] + ": " + answer.text());
                assertFalse(answer.head().toLowerCase().contains("access-control-"), request[0] + ": " + answer.text());
                assertFalse(answer.body().contains("Items"), request[0] + ": " + answer.text());
            }
            RawHttp.Answer own = RawHttp.exchange(port, "POST / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n" + credential + scan);
            assertEquals(200, own.status(), "with the runner's credential: " + own.text());
            assertTrue(own.body().contains("Items"), own.text());
            assertFalse(own.head().toLowerCase().contains("access-control-"), own.text());
            assertEquals(200, runner.send("GET", "/ids", false, null).statusCode(), "the runner itself still reaches it");
        }
    }

    @Test
    void aHalfSentRequestCrashesDynaliteAndTheRunnerCarriesOn() throws IOException {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, Map.of())) {
            long lastBefore = lastId(runner.send("GET", "/ids?count=10", false, null));
            ProcessHandle engine = runner.engine();

            try (Socket socket = new Socket(runner.engineEndpoint().getHost(), runner.engineEndpoint().getPort());
                 OutputStream out = socket.getOutputStream()) {
                // As the runner's own client would drop a request (it shows the credential): no one else gets this far.
                out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\n"
                        + EngineCredential.HEADER + ": " + EngineCredential.read(runner.folder()).value() + "\r\n"
                        + "X-Amz-Target: DynamoDB_20120810.Scan\r\nContent-Length: 1000\r\n\r\n{\"TableName\":")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } // closed with 990 bytes of the body never sent

            await(() -> !engine.isAlive(), Duration.ofSeconds(10), "dynalite 4.0.0 exits on a dropped half-sent request");
            runner.awaitOutput("dynalite (pid " + engine.pid() + ") exited", Duration.ofSeconds(5));
            await(() -> runner.send("GET", "/ids", false, null).statusCode() == 200, Duration.ofSeconds(20),
                    "the runner serves IDs again");
            long firstAfter = lastId(runner.send("GET", "/ids?count=10", false, null));
            assertTrue(firstAfter > lastBefore);
            assertEquals(slotOf(lastBefore), slotOf(firstAfter), "the runner kept its slot: its lease row survived");
        }
    }

    @Test
    void anEngineBackWithoutItsTablesIsRefusedUntilEveryLeaseItHeldRanOut() throws IOException {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, SHORT_LEASES)) {
            long before = lastId(runner.send("GET", "/ids", false, null));
            long oldExpiry = number(json(runner.send("POST", "/leases", true, "")), "expiresAt");
            ProcessHandle engine = runner.engine();

            deleteFilesIn(runner.folder().resolve("tables")); // the engine comes back empty
            engine.destroyForcibly();

            // While it restarts, /ids answers 503 too; then the restarted engine's table is checked.
            await(() -> runner.send("GET", "/ids", false, null).body().contains("lost rows"), Duration.ofSeconds(20),
                    "IDs are refused because rows were lost");
            HttpResponse<String> refused = runner.send("GET", "/ids", false, null);
            assertEquals(503, refused.statusCode());
            assertEquals("store_unavailable", json(refused).field("error").orElseThrow().asString());
            assertTrue(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()) >= 1);
            HttpResponse<String> lease = runner.send("POST", "/leases", true, "");
            assertEquals(503, lease.statusCode(), "no lease from a table that lost rows: " + lease.body());
            assertEquals(200, runner.send("GET", "/ids/" + before, false, null).statusCode(), "decoding needs no table");
            runner.awaitOutput("lost rows (the lease table 'snowid-leases' is gone)", Duration.ofSeconds(5));

            await(() -> runner.send("GET", "/ids", false, null).statusCode() == 200, Duration.ofSeconds(30),
                    "IDs again once every lease of the lost table ran out");
            assertTrue(System.currentTimeMillis() >= oldExpiry, "not before the lost leases' expiry");
            long after = lastId(runner.send("GET", "/ids", false, null));
            assertTrue(SnowflakeCodec.TWITTER.decode(after).unixMillis() >= oldExpiry,
                    "IDs after the loss lie after every lost lease's window");
        }
    }

    @Test
    void aLeaseRowDeletedUnderARunningRunnerStopsIdsAndLeases() {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, SHORT_LEASES)) {
            long slot = number(json(runner.send("POST", "/leases", true, "")), "slot");
            assertEquals(200, runner.send("GET", "/ids", false, null).statusCode());

            try (DynamoDbClient client = runner.engineClient()) {
                client.deleteItem(d -> d.tableName("snowid-leases")
                        .key(Map.of(LeaseTableSchema.SLOT, AttributeValue.fromN(Long.toString(slot)))));
            }

            await(() -> runner.send("GET", "/ids", false, null).statusCode() == 503, Duration.ofSeconds(10),
                    "IDs are refused once the runner sees the row is gone");
            HttpResponse<String> lease = runner.send("POST", "/leases", true, "");
            assertEquals(503, lease.statusCode());
            assertTrue(lease.body().contains("lost rows"), lease.body());
            runner.awaitOutput("lost rows (slot " + slot + " (fence 1) is gone)", Duration.ofSeconds(5));
        }
    }

    private static long lastId(HttpResponse<String> response) {
        assertEquals(200, response.statusCode(), response.body());
        List<JsonNode> ids = json(response).field("ids").orElseThrow().asArray();
        return Long.parseLong(ids.get(ids.size() - 1).asString());
    }

    private static String slotOf(long id) {
        SnowflakeId decoded = SnowflakeCodec.TWITTER.decode(id);
        return decoded.datacenter() + ":" + decoded.machine();
    }

    private static JsonNode json(HttpResponse<String> response) {
        return JsonNode.parser().parse(response.body());
    }

    private static long number(JsonNode node, String field) {
        return Long.parseLong(node.field(field).orElseThrow().asNumber());
    }

    private static void deleteFilesIn(Path folder) throws IOException {
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).filter(Files::isRegularFile).toList()) {
                Files.delete(file);
            }
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
