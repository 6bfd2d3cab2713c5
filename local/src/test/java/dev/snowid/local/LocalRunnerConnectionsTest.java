package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.RawHttp.Answer;
import dev.snowid.local.http.LocalHttpServer;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local runner's connections, over raw sockets: every request it cannot read is answered as
 * JSON with a 4xx, a client that sends half a request stalls nobody else and is cut off, and
 * request targets reach the function as sent.
 */
@ExtendWith(DynamoDbEngine.class)
class LocalRunnerConnectionsTest {

    private static final String SECRET = "connections-c22713c61ad3396aca68d3bdc50755b7b61242d7e63329a12a9d7a608974fcf5";

    @Test
    void everyRequestTheRunnerCannotReadIsAnsweredAsJsonWithA4xx(TestTable table) {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            int port = runner.port();
            String host = "Host: localhost:" + port + "\r\n";
            String longText = "x".repeat(LocalHttpServer.MAX_HEAD_BYTES);
            Object[][] cases = {
                    {"a % without two hex digits", "GET /ids?count=% HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"a bad escape in the path", "GET /ids/%zz HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"not HTTP at all", "HELLO\r\n\r\n", 400, "invalid_request"},
                    {"two spaces in the request line", "GET  /ids HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"a space in the target", "GET /ids?a=b c HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"HTTP/2's preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400, "invalid_request"},
                    {"another version", "GET /ids HTTP/1.2\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"an asterisk target", "OPTIONS * HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"an authority target", "CONNECT localhost:443 HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"a character a URL must encode", "GET /ids?a=<b> HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"a method that is not a token", "G(T /ids HTTP/1.1\r\n" + host + "\r\n", 400, "invalid_request"},
                    {"a header without a colon", "GET /ids HTTP/1.1\r\n" + host + "NoColon\r\n\r\n", 400, "invalid_request"},
                    {"a space before the colon", "GET /ids HTTP/1.1\r\n" + host + "X-A : b\r\n\r\n", 400, "invalid_request"},
                    {"a folded header", "GET /ids HTTP/1.1\r\n" + host + "X-A: b\r\n c\r\n\r\n", 400, "invalid_request"},
                    {"a control character in a value", "GET /ids HTTP/1.1\r\n" + host + "X-A: b\u0001c\r\n\r\n", 400, "invalid_request"},
                    {"a length that is no number", "POST /ids HTTP/1.1\r\n" + host + "Content-Length: ten\r\n\r\n", 400, "invalid_request"},
                    {"two different lengths", "POST /ids HTTP/1.1\r\n" + host + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab",
                            400, "invalid_request"},
                    {"a length and chunks", "POST /ids HTTP/1.1\r\n" + host + "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
                            400, "invalid_request"},
                    {"a transfer coding other than chunked", "POST /ids HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\n\r\n",
                            400, "invalid_request"},
                    {"a chunk size that is no number", "POST /ids HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\nzz\r\n",
                            400, "invalid_request"},
                    {"an unknown expectation", "POST /ids HTTP/1.1\r\n" + host + "Expect: coffee\r\nContent-Length: 0\r\n\r\n",
                            417, "expectation_failed"},
                    {"a body over Lambda's limit", "POST /ids HTTP/1.1\r\n" + host + "Content-Length: 7000000\r\n\r\n",
                            413, "payload_too_large"},
                    {"a request line over the limit", "GET /ids?x=" + longText + " HTTP/1.1\r\n" + host + "\r\n", 414, "uri_too_long"},
                    {"headers over the limit", "GET /ids HTTP/1.1\r\n" + host + "X-Long: " + longText + "\r\n\r\n", 431,
                            "headers_too_large"},
                    {"no Host", "GET /ids HTTP/1.0\r\n\r\n", 421, "misdirected_request"},
            };
            for (Object[] c : cases) {
                Answer answer = RawHttp.exchange(port, (String) c[1]);
                answer.assertJsonError((int) c[2], (String) c[3], (String) c[0]);
                assertFalse(answer.text().contains("<html") || answer.text().contains("<h1>"), c[0] + ": " + answer.text());
            }
            // Bytes that are not UTF-8 in the target.
            byte[] notUtf8 = ("GET /ids?count=\u00ff HTTP/1.1\r\n" + host + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            RawHttp.exchange(port, notUtf8).assertJsonError(400, "invalid_request", "a target that is not UTF-8");
        }
    }

    @Test
    void aHalfSentRequestStallsNoOtherClientAndIsCutOffWithA408(TestTable table) throws Exception {
        try (LocalRunner runner = LocalRunner.start(environment(table));
             Socket stalled = RawHttp.open(runner.port())) {
            OutputStream out = stalled.getOutputStream();
            out.write(("POST /ids HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();

            ExecutorService clients = Executors.newFixedThreadPool(8);
            try {
                List<Callable<Answer>> calls = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    calls.add(() -> RawHttp.exchange(runner.port(), "GET /ids HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n"));
                }
                for (Future<Answer> answer : clients.invokeAll(calls, 60, TimeUnit.SECONDS)) {
                    assertEquals(200, answer.get().status(), answer.get().text());
                }
            } finally {
                clients.shutdownNow();
            }

            Answer cutOff = Answer.of(RawHttp.readAll(stalled.getInputStream()));
            assertTrue(cutOff.assertJsonError(408, "request_timeout", "the stalled request").contains(LocalHttpServer.REQUEST_SECONDS + " s"));
        }
    }

    @Test
    void slashesBeforeTheRouteAre404AsTheFunctionAnswersThem(TestTable table) {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            for (String target : new String[] {"///ids", "///ids?count=2", "///leases/0", "//ids"}) {
                Answer answer = RawHttp.exchange(runner.port(), "GET " + target + " HTTP/1.1\r\nHost: localhost:" + runner.port()
                        + "\r\nConnection: close\r\n\r\n");
                answer.assertJsonError(404, "not_found", target);
            }
            Answer plain = RawHttp.exchange(runner.port(), "GET /ids?count=2 HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n");
            assertEquals(200, plain.status(), plain.text());
        }
    }

    @Test
    void chunkedBodiesPipelinedRequestsAndExpectContinueAreServed(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table)); Socket socket = RawHttp.open(runner.port())) {
            String host = "Host: localhost:" + runner.port() + "\r\n";
            String chunked = "POST /leases HTTP/1.1\r\n" + host + "Authorization: Bearer " + SECRET + "\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5;ext=1\r\n{\"hol\r\n" + "9\r\nder\":\"chu\r\n" + "6\r\nnked\"}\r\n" + "0\r\nX-Trailer: dropped\r\n\r\n";
            String slotMap = "GET /leases HTTP/1.1\r\n" + host + "Authorization: Bearer " + SECRET + "\r\n\r\n";
            String closing = "GET /ids?count=2 HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n";
            // Three requests at once on one connection: each answered in turn.
            socket.getOutputStream().write((chunked + slotMap + closing).getBytes(StandardCharsets.US_ASCII));
            String all = RawHttp.readAll(socket.getInputStream());

            String[] answers = all.split("(?=HTTP/1\\.1 )");
            assertEquals(3, answers.length, all);
            assertTrue(answers[0].startsWith("HTTP/1.1 201"), answers[0]);
            assertTrue(answers[1].startsWith("HTTP/1.1 200"), answers[1]);
            assertTrue(answers[1].contains("\"holder\":\"chunked\""), "the holder named in the chunked body: " + answers[1]);
            assertTrue(answers[2].startsWith("HTTP/1.1 200") && answers[2].contains("Connection: close"), answers[2]);
        }
        try (LocalRunner runner = LocalRunner.start(environment(table)); Socket socket = RawHttp.open(runner.port())) {
            // Expect: 100-continue: the body is asked for once the head is accepted (curl sends it for larger bodies).
            OutputStream out = socket.getOutputStream();
            out.write(("POST /ids?count=2 HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nExpect: 100-continue\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] interim = socket.getInputStream().readNBytes("HTTP/1.1 100 Continue\r\n\r\n".length());
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", new String(interim, StandardCharsets.US_ASCII));
            out.write("{}".getBytes(StandardCharsets.US_ASCII));
            Answer answer = Answer.of(RawHttp.readAll(socket.getInputStream()));
            assertEquals(200, answer.status(), answer.text());
        }
    }

    @Test
    void theRawPathIsTheTargetAsSent() {
        assertEquals("///ids", RequestTarget.rawPath(java.net.URI.create("///ids?count=1")));
        assertEquals("/ids/1%2F2", RequestTarget.rawPath(java.net.URI.create("/ids/1%2F2")));
        assertEquals("/ids", RequestTarget.rawPath(java.net.URI.create("http://localhost:8080/ids?count=1")));
        assertEquals("/", RequestTarget.rawPath(java.net.URI.create("?x")));
    }

    /**
     * The bound on open connections: one past it is answered 503 as JSON and closed, at once; once
     * a connection closes, the next one is served. The runner counts a connection when its event
     * loop accepts it, so the test waits (with a deadline) for the count to reach the bound.
     */
    @Test
    void oneConnectionPastTheBoundIs503AsJsonAndOneClosingLetsTheNextIn(TestTable table) throws IOException, InterruptedException {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            int port = runner.port();
            String ids = "GET /ids HTTP/1.1\r\nHost: localhost:" + port + "\r\nConnection: close\r\n\r\n";
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < LocalHttpServer.MAX_CONNECTIONS; i++) {
                    held.add(RawHttp.open(port));
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                Answer past = RawHttp.exchange(port, ids);
                while (past.status() == 200 && System.nanoTime() < deadline) {
                    Thread.sleep(50); // the held connections are still being accepted
                    past = RawHttp.exchange(port, ids);
                }
                String message = past.assertJsonError(503, "unavailable", "one connection past " + LocalHttpServer.MAX_CONNECTIONS);
                assertTrue(message.contains(LocalHttpServer.MAX_CONNECTIONS + " connections"), message);

                held.remove(0).close();
                Answer next = RawHttp.exchange(port, ids);
                while (next.status() == 503 && System.nanoTime() < deadline) {
                    Thread.sleep(50); // the closed connection is still being counted out
                    next = RawHttp.exchange(port, ids);
                }
                assertEquals(200, next.status(), next.text());
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    static Map<String, String> environment(TestTable table) {
        return Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(), LocalSettings.LOCAL_LEASE_SECRET, SECRET);
    }
}
