package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
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
 * The local runner's connections, over raw sockets: a client that sends half a request stalls
 * nobody else and is cut off in bounded time, and request targets reach the function as sent.
 */
@ExtendWith(DynamoDbEngine.class)
class LocalRunnerConnectionsTest {

    @Test
    void aHalfSentRequestStallsNoOtherClientAndIsCutOff(TestTable table) throws Exception {
        try (LocalRunner runner = LocalRunner.start(environment(table));
             Socket stalled = new Socket(InetAddress.getLoopbackAddress(), runner.port())) {
            OutputStream out = stalled.getOutputStream();
            out.write(("POST /ids HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();

            ExecutorService clients = Executors.newFixedThreadPool(8);
            try {
                List<Callable<String>> calls = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    calls.add(() -> exchange(runner.port(), "GET /ids HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n"));
                }
                for (Future<String> answer : clients.invokeAll(calls, 20, TimeUnit.SECONDS)) {
                    assertTrue(answer.get().startsWith("HTTP/1.1 200"), answer.get());
                }
            } finally {
                clients.shutdownNow();
            }

            stalled.setSoTimeout((RequestThreads.MAX_REQUEST_SECONDS + 10) * 1000);
            String cutOff = read(stalled.getInputStream());
            assertTrue(cutOff.isEmpty() || cutOff.startsWith("HTTP/1.1 400") && cutOff.contains("\"error\":\"invalid_request\""),
                    "closed, or told as JSON, within the request time: " + cutOff);
        }
    }

    @Test
    void slashesBeforeTheRouteAre404AsTheFunctionAnswersThem(TestTable table) throws IOException {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            for (String target : new String[] {"///ids", "///ids?count=2", "///leases/0"}) {
                String answer = exchange(runner.port(), "GET " + target + " HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n");
                assertTrue(answer.startsWith("HTTP/1.1 404"), target + ": " + answer);
                assertTrue(answer.contains("\"error\":\"not_found\""), answer);
            }
            // "//ids" reads as host "ids" with no path: the JDK server answers 404 itself, before the runner sees it.
            String noPath = exchange(runner.port(), "GET //ids HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n");
            assertTrue(noPath.startsWith("HTTP/1.1 404"), noPath);
            String plain = exchange(runner.port(), "GET /ids?count=2 HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\n\r\n");
            assertTrue(plain.startsWith("HTTP/1.1 200"), plain);
        }
    }

    @Test
    void theRawPathIsTheTargetAsSent() {
        assertEquals("///ids", RequestTarget.rawPath(java.net.URI.create("///ids?count=1")));
        assertEquals("/ids/1%2F2", RequestTarget.rawPath(java.net.URI.create("/ids/1%2F2")));
        assertEquals("/ids", RequestTarget.rawPath(java.net.URI.create("http://localhost:8080/ids?count=1")));
        assertEquals("/", RequestTarget.rawPath(java.net.URI.create("?x")));
    }

    private static String exchange(int port, String request) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(15_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return read(socket.getInputStream());
        }
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) > 0; ) {
                bytes.write(buffer, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a connection cut off by the server: what was read so far is the answer
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static Map<String, String> environment(TestTable table) {
        return Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(), LocalSettings.LOCAL_LEASE_SECRET, "connections-94ODPNUlNaWpB5JCmZxEMWlE");
    }
}
