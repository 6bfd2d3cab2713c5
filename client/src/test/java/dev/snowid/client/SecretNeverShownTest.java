package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.lease.LeaseStoreUnavailableException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client front end never shows the bearer secret: a recognisable secret is fed through every
 * error path of the builder and of a lease API that refuses, fails or is not there, and every
 * message, stack trace and log line is searched for it.
 */
class SecretNeverShownTest {

    /** Strong, and recognisable anywhere it leaks, in part or whole. */
    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "zLx2VbN9fR4mT8kH6jP1sD5gYcAe";

    private final List<String> shown = new ArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void noErrorPathOfTheBuilderOrTheApiShowsTheSecret() throws IOException {
        String url = serve();
        // The builder's own refusals.
        build(() -> SnowidClient.builder().leaseUrl(url).secret(MARK + "weak"));
        build(() -> SnowidClient.builder().leaseUrl(url).secret(SECRET).awsIam());
        build(() -> SnowidClient.builder().leaseUrl(url).secret(" "));
        build(() -> SnowidClient.builder().leaseUrl("https://orders:" + SECRET + "@api.example.org").secret(SECRET));
        build(() -> SnowidClient.builder().leaseUrl("https://orders:" + SECRET + "@api.example.org/?x=" + SECRET).secret(SECRET));
        // A secret no header can carry: HttpURLConnection's own refusal would quote the header.
        build(() -> SnowidClient.builder().leaseUrl(url).secret(SECRET + "\n" + SECRET));
        build(() -> SnowidClient.builder().leaseUrl(url).secret(new Changing(SECRET, SECRET + "\u0000x")));
        build(() -> SnowidClient.builder().leaseUrl(url).secret(new Changing(SECRET, null)));
        // The API's refusals and failures, as the function and API Gateway answer them.
        for (String path : new String[] {"/refused", "/forbidden", "/gateway", "/garbled", "/echo"}) {
            build(() -> SnowidClient.builder().leaseUrl(url + path).secret(SECRET));
        }
        // No API at all.
        String nobody = "http://127.0.0.1:" + freePort();
        build(() -> SnowidClient.builder().leaseUrl(nobody).secret(SECRET));

        assertTrue(shown.size() >= 14, "every path failed and was searched: " + shown.size());
        for (String text : shown) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    /**
     * Configures and builds, and keeps what a person would see of the failure: message, stack
     * trace, causes, the setting to fix; and what the client logged.
     */
    private void build(Supplier<SnowidClient.Builder> configured) {
        List<String> log = new ArrayList<>();
        ClientLog recording = new ClientLog() {
            @Override
            public void info(String message) {
                log.add(message);
            }

            @Override
            public void warn(String message) {
                log.add(message);
            }

            @Override
            public void error(String message) {
                log.add(message);
            }
        };
        try {
            configured.get().log(recording).build().close();
            shown.add("built: no failure (the test expects one)" + MARK);
        } catch (RuntimeException e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            shown.add(trace.toString());
            shown.add(String.valueOf(ClientSettings.toFix(e)));
        }
        shown.add(String.join("\n", log));
    }

    private String serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        answer("/refused/leases", 401, "{\"error\":\"unauthorized\",\"message\":\"the bearer secret is wrong\"}");
        answer("/forbidden/leases", 403, "{\"message\":\"Forbidden\"}");
        answer("/gateway/leases", 500, "{\"message\":\"Internal Server Error\"}");
        answer("/garbled/leases", 201, "{\"slot\":\"not a lease\"}");
        server.createContext("/echo/leases", exchange -> { // a misbehaving proxy that echoes the request's headers
            byte[] body = ("<html>" + exchange.getRequestHeaders().getFirst("Authorization") + "</html>").getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(502, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.createContext("/leases", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(503, -1);
            exchange.close();
        });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void answer(String path, int status, String json) {
        server.createContext(path, exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** A secret supplier whose first answer (the builder's check) differs from the later ones (the calls'). */
    private static final class Changing implements Supplier<String> {
        private final String first;
        private final String later;
        private boolean asked;

        Changing(String first, String later) {
            this.first = first;
            this.later = later;
        }

        @Override
        public synchronized String get() {
            String answer = asked ? later : first;
            asked = true;
            return answer;
        }

        @Override
        public String toString() {
            return "a changing secret";
        }
    }
}
