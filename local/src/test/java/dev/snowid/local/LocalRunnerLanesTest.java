package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.json.TestJson;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.IOException;
import java.io.OutputStream;
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
 * The runner's lanes over real HTTP: slow clients hold no thread a renewal needs, the lease
 * routes' secret is checked before the body is read, only loopback {@code Host}s are answered,
 * and the pool is split by default. (What a full lane does: {@link LaneDispatchTest}.)
 */
@ExtendWith(DynamoDbEngine.class)
class LocalRunnerLanesTest {

    private static final String SECRET = "lanes-test-secret-f1fb629dc0e5cfa2483b9e117870eb9ab2cab2510a290ac58ef5d910f0dad18c";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * Slow clients hold no thread a renewal needs: while many heads are half sent (slowloris) and
     * bodies trickle in, renewals are answered; and they are answered while every slow client is
     * still connected, not after the server cut them off (each then still gets its own answer).
     */
    @Test
    void renewalsAreAnsweredWhileSlowClientsHoldTheirConnections(TestTable table) throws Exception {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            JsonValue lease = json(send(runner, "POST", "/leases", "{\"holder\":\"agent\"}", 201));
            String slot = lease.field("slot").flatMap(JsonValue::number).orElseThrow();
            String claim = "{\"owner\":\"" + lease.field("owner").flatMap(JsonValue::string).orElseThrow() + "\",\"fence\":"
                    + lease.field("fence").flatMap(JsonValue::number).orElseThrow() + "}";
            String host = "Host: localhost:" + runner.port() + "\r\n";
            String body = "{\"holder\":\"slow\"}";

            List<Socket> heads = new ArrayList<>();
            List<Socket> bodies = new ArrayList<>();
            try {
                for (int i = 0; i < 64; i++) { // a head never finished: its empty line is not sent
                    heads.add(sent(runner, "POST /leases HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"));
                }
                for (int i = 0; i < 8; i++) { // the secret and a head, then half of the body
                    bodies.add(sent(runner, "POST /ids?count=1 HTTP/1.1\r\n" + host + "Content-Type: application/json\r\nContent-Length: "
                            + body.length() + "\r\n\r\n" + body.substring(0, 5)));
                    bodies.add(sent(runner, "POST /leases HTTP/1.1\r\n" + host + "Authorization: Bearer " + SECRET
                            + "\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: " + body.length() + "\r\n\r\n"
                            + body.substring(0, 5)));
                }

                for (int i = 0; i < 3; i++) {
                    send(runner, "PUT", "/leases/" + slot, claim, 200);
                }

                // Every slow client is still connected: finishing its request gets its answer, not a 408.
                for (Socket socket : heads) {
                    socket.getOutputStream().write("Connection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    RawHttp.Answer.of(RawHttp.readAll(socket.getInputStream())).assertJsonError(401, "unauthorized", "a finished head");
                }
                for (Socket socket : bodies) {
                    socket.getOutputStream().write(body.substring(5).getBytes(StandardCharsets.US_ASCII));
                    socket.shutdownOutput();
                    RawHttp.Answer answer = RawHttp.Answer.of(RawHttp.readAll(socket.getInputStream()));
                    assertTrue(answer.status() == 200 || answer.status() == 201, answer.text());
                }
            } finally {
                for (Socket socket : heads) {
                    socket.close();
                }
                for (Socket socket : bodies) {
                    socket.close();
                }
            }
        }
    }

    /** The lease lane checks the secret on the head: a request with a wrong one is refused while its body is still missing. */
    @Test
    void theSecretIsCheckedBeforeTheBodyIsRead(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table)); Socket socket = RawHttp.open(runner.port())) {
            socket.getOutputStream().write(("POST /leases HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nAuthorization: Bearer x"
                    + SECRET + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
            RawHttp.Answer answer = RawHttp.Answer.of(RawHttp.readAll(socket.getInputStream()));
            assertTrue(answer.assertJsonError(401, "unauthorized", "a wrong secret, the body unsent").contains("wrong"), answer.text());
        }
    }

    private static Socket sent(LocalRunner runner, String text) throws IOException {
        Socket socket = RawHttp.open(runner.port());
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    @Test
    void aHostHeaderOtherThanTheRunnersOwnIsRefusedAsJson(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            for (String host : new String[] {"attacker.example:" + runner.port(), "localhost", "127.0.0.1.nip.io:" + runner.port()}) {
                RawHttp.Answer answer = RawHttp.exchange(runner.port(), "GET /ids HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n");
                assertTrue(answer.assertJsonError(421, "misdirected_request", host).contains("localhost:<port>"), answer.text());
            }
            for (String host : new String[] {"localhost:", "127.0.0.1:", "[::1]:"}) {
                RawHttp.Answer answer = RawHttp.exchange(runner.port(), "GET /ids HTTP/1.1\r\nHost: " + host + runner.port() + "\r\nConnection: close\r\n\r\n");
                assertEquals(200, answer.status(), host + ": " + answer.text());
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

    private static Map<String, String> environment(TestTable table) {
        return Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(), LocalSettings.LOCAL_LEASE_SECRET, SECRET);
    }
}
