package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.snowid.lambda.api.BearerSecretCheck;
import dev.snowid.lambda.api.LeaseRouteAuth;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.RawHttp.Answer;
import dev.snowid.local.http.LocalHttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The order in which the runner decides on a request, shown with counting handlers in place of
 * the lanes' (what stands behind a lane, its engine gate, the bridge and the engine, is only
 * reached through it): the lease lane's credentials are checked on the head, before the body is
 * read and before the lane (so the engine) is touched; and a full lane refuses at once while the
 * other lane goes on.
 */
class LaneDispatchTest {

    private static final String SECRET = "dispatch-test-02c06f7dde4710134bdab8a70e619e580db094efac17ed0213b08208a69338c7";

    @Test
    void aRequestWithoutTheSecretIsRefusedOnItsHeadAndNeverReachesTheLeaseLane() throws Exception {
        AtomicInteger leaseLaneCalls = new AtomicInteger();
        HttpHandler leaseLane = exchange -> {
            leaseLaneCalls.incrementAndGet();
            answer(exchange, 200, "{\"lane\":\"leases\"}");
        };
        try (Dispatching server = new Dispatching(exchange -> answer(exchange, 200, "{}"), leaseLane)) {
            String host = "Host: localhost:" + server.port() + "\r\n";
            List<String> refused = List.of(
                    "POST /leases HTTP/1.1\r\n" + host + "Content-Length: 2\r\n\r\n{}",
                    "GET /leases HTTP/1.1\r\n" + host + "Authorization: Bearer not-the-secret\r\n\r\n",
                    "PUT /leases/3 HTTP/1.1\r\n" + host + "Authorization: Basic " + SECRET + "\r\nContent-Length: 2\r\n\r\n{}",
                    "DELETE /leases/3 HTTP/1.1\r\n" + host + "Authorization: Bearer\r\n\r\n");
            for (String request : refused) {
                Answer answer = RawHttp.exchange(server.port(), request);
                answer.assertJsonError(401, "unauthorized", request);
                String challenge = answer.header("WWW-Authenticate");
                assertTrue(challenge != null && challenge.startsWith("Bearer realm=\"snowid-leases\""), answer.text());
            }
            // A body announced and never sent: the answer comes on the head alone, while the client still owes the body.
            try (Socket socket = RawHttp.open(server.port())) {
                socket.getOutputStream().write(("POST /leases HTTP/1.1\r\n" + host + "Authorization: Bearer wrong-" + SECRET
                        + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                Answer answer = Answer.of(RawHttp.readAll(socket.getInputStream()));
                assertTrue(answer.assertJsonError(401, "unauthorized", "no body").contains("wrong"), answer.text());
                assertEquals("close", answer.header("Connection"), "the unread body is not taken for the next request: " + answer.text());
            }
            assertEquals(0, leaseLaneCalls.get(), "a refused request never reached the lease lane");
            // A path that only decodes to a lease route matches none, as at API Gateway: the ids lane's $default, never the lease lane.
            Answer unmatched = RawHttp.exchange(server.port(), "PUT /%6Ceases/3 HTTP/1.1\r\n" + host + "Authorization: Bearer " + SECRET
                    + "\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
            assertEquals(200, unmatched.status(), unmatched.text());
            assertEquals("{}", unmatched.body(), "the ids lane's stand-in answered: " + unmatched.text());
            assertEquals(0, leaseLaneCalls.get(), "a request matching no lease route never reaches the lease lane");

            Answer admitted = RawHttp.exchange(server.port(), "POST /leases HTTP/1.1\r\n" + host + "Authorization: Bearer " + SECRET
                    + "\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
            assertEquals(200, admitted.status(), admitted.text());
            assertEquals(1, leaseLaneCalls.get());
        }
    }

    @Test
    void aFullIdsLaneRefusesAtOnceWhileRenewalsGoOn() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        HttpHandler heldIds = exchange -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            answer(exchange, 200, "{}");
        };
        try (Dispatching server = new Dispatching(heldIds, exchange -> answer(exchange, 200, "{\"renewed\":true}"))) {
            String host = "Host: localhost:" + server.port() + "\r\n";
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < RequestThreads.IDS_THREADS + RequestThreads.LANE_QUEUE; i++) {
                    Socket socket = RawHttp.open(server.port());
                    held.add(socket);
                    socket.getOutputStream().write(("GET /ids HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                }
                RunnerProcess.await(() -> server.dispatch.full(RouteLane.IDS), Duration.ofSeconds(30), "every ids thread busy and its queue full");

                Answer full = RawHttp.exchange(server.port(), "GET /ids HTTP/1.1\r\n" + host + "\r\n");
                full.assertJsonError(503, "unavailable", "one more /ids");
                assertEquals("1", full.header("Retry-After"), full.text());
                for (int i = 0; i < 3; i++) {
                    Answer renewed = RawHttp.exchange(server.port(), "PUT /leases/7 HTTP/1.1\r\n" + host + "Authorization: Bearer "
                            + SECRET + "\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
                    assertEquals(200, renewed.status(), renewed.text());
                }
                assertTrue(server.dispatch.full(RouteLane.IDS), "the ids lane was held all along");
            } finally {
                release.countDown();
            }
            for (Socket socket : held) {
                try (socket) {
                    assertEquals(200, Answer.of(RawHttp.readAll(socket.getInputStream())).status());
                }
            }
        }
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        try (exchange) {
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** The runner's server and dispatch, with these handlers behind the lanes and the lease secret {@link #SECRET}. */
    private static final class Dispatching implements AutoCloseable {
        final LaneDispatch dispatch;
        final LocalHttpServer server;

        Dispatching(HttpHandler ids, HttpHandler leases) throws IOException {
            Map<RouteLane, HttpHandler> lanes = new EnumMap<>(RouteLane.class);
            lanes.put(RouteLane.IDS, ids);
            lanes.put(RouteLane.LEASES, leases);
            String digest = HexFormat.of().formatHex(BearerSecretCheck.sha256(SECRET));
            FunctionSettings settings = FunctionSettings.from(Map.of(FunctionSettings.TABLE, "dispatch-test", FunctionSettings.LEASE_SECRET_SHA256, digest,
                    FunctionSettings.ROLE, "leases"));
            dispatch = new LaneDispatch(lanes, LeaseRouteAuth.of(settings));
            server = LocalHttpServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1 << 20, dispatch);
        }

        int port() {
            return server.address().getPort();
        }

        @Override
        public void close() {
            server.close();
            dispatch.shutdownNow();
        }
    }
}
