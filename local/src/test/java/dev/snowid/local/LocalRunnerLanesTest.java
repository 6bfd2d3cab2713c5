package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.json.JsonValue;
import dev.snowid.lambda.json.TestJson;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The runner's two lanes, as the template's two functions: the lease routes keep their own
 * threads while every {@code /ids} thread is held and its queue full; every queue is bounded;
 * only loopback {@code Host}s are answered; and the pool is split by default.
 */
@ExtendWith(DynamoDbEngine.class)
class LocalRunnerLanesTest {

    private static final String SECRET = "lanes-test-secret-Vq8mZ2kX7pR4";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void renewalsAreAnsweredWhileEveryIdsThreadIsHeldAndItsQueueIsFull(TestTable table) throws Exception {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            JsonValue lease = json(send(runner, "POST", "/leases", "{\"holder\":\"agent\"}", 201));
            String slot = lease.field("slot").flatMap(JsonValue::number).orElseThrow();
            String claim = "{\"owner\":\"" + lease.field("owner").flatMap(JsonValue::string).orElseThrow() + "\",\"fence\":"
                    + lease.field("fence").flatMap(JsonValue::number).orElseThrow() + "}";

            // Each of these holds an /ids thread (or a place in its queue): headers sent, the body never finished.
            List<Socket> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < RequestThreads.IDS_THREADS + RequestThreads.LANE_QUEUE; i++) {
                    Socket socket = new Socket(InetAddress.getLoopbackAddress(), runner.port());
                    stalled.add(socket);
                    OutputStream out = socket.getOutputStream();
                    out.write(("POST /ids HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 100\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                }
                // The JDK server cuts these off 10 s after they began: everything below happens well within that.
                RunnerProcess.await(() -> runner.laneFull(RouteLane.IDS), Duration.ofSeconds(5),
                        "every ids thread busy and its queue full");
                // One more is refused at once, as JSON, rather than queued without bound.
                HttpResponse<String> full = send(runner, "GET", "/ids", null, 503);
                assertEquals("unavailable", json(full).field("error").flatMap(JsonValue::string).orElseThrow(), full.body());
                assertTrue(full.headers().firstValue("Retry-After").isPresent());

                // The renewal runs on the lease lane: answered now, not after the stalled requests are cut off.
                for (int i = 0; i < 3; i++) {
                    send(runner, "PUT", "/leases/" + slot, claim, 200);
                }
                // And the ids lane was held all along (the renewals did not merely come after it drained).
                assertTrue(runner.laneFull(RouteLane.IDS), "the ids lane is still held");
                assertEquals(503, send(runner, "GET", "/ids", null, -1).statusCode(), "the ids lane is still held");
            } finally {
                for (Socket socket : stalled) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aHostHeaderOtherThanTheRunnersOwnIsRefusedAsJson(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            for (String host : new String[] {"attacker.example:" + runner.port(), "localhost", "127.0.0.1.nip.io:" + runner.port()}) {
                String answer = exchange(runner.port(), "GET /ids HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
                assertTrue(answer.startsWith("HTTP/1.1 421"), host + ": " + answer);
                assertTrue(answer.contains("\"error\":\"misdirected_request\"") && answer.contains("localhost:<port>"), answer);
            }
            for (String host : new String[] {"localhost:", "127.0.0.1:", "[::1]:"}) {
                String answer = exchange(runner.port(), "GET /ids HTTP/1.1\r\nHost: " + host + runner.port() + "\r\nConnection: close\r\n\r\n");
                assertTrue(answer.startsWith("HTTP/1.1 200"), host + ": " + answer);
            }
        }
    }

    @Test
    void byDefaultThePoolIsSplitSoAClientDrainingLeasesLeavesTheRunnersIds(TestTable table) {
        Map<String, String> env = new java.util.HashMap<>(environment(table));
        env.put(FunctionSettings.DATACENTERS, "0");
        env.put(FunctionSettings.MACHINES, "0-7"); // 8 slots: 2 for agents by default, as the template keeps a quarter
        try (LocalRunner runner = LocalRunner.start(env)) {
            send(runner, "POST", "/leases", "", 201);
            send(runner, "POST", "/leases", "", 201);
            HttpResponse<String> drained = send(runner, "POST", "/leases", "", 503);
            assertTrue(drained.body().contains("no_free_slot"), drained.body());
            send(runner, "GET", "/ids", null, 200);
        }
    }

    private HttpResponse<String> send(LocalRunner runner, String method, String path, String body, int expected) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(runner.baseUri() + path)).timeout(Duration.ofSeconds(8))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (path.startsWith("/leases")) {
            request.header("Authorization", "Bearer " + SECRET);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (expected >= 0) {
                assertEquals(expected, response.statusCode(), method + " " + path + ": " + response.body());
            }
            return response;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(method + " " + path + " got no answer within 8 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonValue json(HttpResponse<String> response) {
        return TestJson.parse(response.body());
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    private static Map<String, String> environment(TestTable table) {
        return Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(), LocalSettings.LOCAL_LEASE_SECRET, SECRET);
    }
}
