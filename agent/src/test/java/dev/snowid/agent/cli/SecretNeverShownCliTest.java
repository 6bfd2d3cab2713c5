package dev.snowid.agent.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UnsupportedEncodingException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The agent's CLI ({@code check}, {@code leases}) never shows the bearer secret: each command is
 * run with a recognisable secret against an API that refuses, fails, echoes the request or is not
 * there, with the secret misnamed, left over in IAM mode or inside the URL, and everything the
 * commands print is searched for it.
 */
class SecretNeverShownCliTest {

    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "zLx2VbN9fR4mT8kH6jP1sD5gYcAe";

    private final List<String> printed = new ArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void neitherCommandPrintsTheSecretOnAnyPath() throws IOException {
        String url = serve();
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        List<String> urls = List.of(url + "/refused", url + "/forbidden", url + "/gateway", url + "/echo", "http://127.0.0.1:" + port,
                "https://orders:" + SECRET + "@api.example.org", "https://api.example.org/?token=" + SECRET, SECRET);
        for (String command : new String[] {"check", "leases"}) {
            for (String target : urls) {
                run(command, env("SNOWID_LEASE_SECRET", SECRET), target);
            }
            run(command, env("SNOWID_LEASE_SECRETS", SECRET), url + "/refused");
            run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_TOKEN", SECRET, "SNOWID_LEASE_SECRET_FILE", SECRET),
                    url + "/refused");
            run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_AUTH", "aws_iam"), url + "/refused");
            run(command, env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_AUTH", "sometimes"), url + "/refused");
            run(command, env("SNOWID_LEASE_SECRET", SECRET), url + "/refused", SECRET);
        }
        assertTrue(printed.size() >= 26, "every run was searched: " + printed.size());
        for (String text : printed) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    private void run(String command, Map<String, String> env, String... args) throws UnsupportedEncodingException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = new PrintStream(out, true, "UTF-8");
        PrintStream stderr = new PrintStream(err, true, "UTF-8");
        int status = command.equals("check") ? CheckCommand.run(args, env, stdout, stderr) : LeasesCommand.run(args, env, stdout, stderr);
        printed.add(command + " exit " + status + ":\n" + out.toString("UTF-8") + err.toString("UTF-8"));
        assertTrue(status != 0, command + " " + String.join(" ", args) + " must fail: " + out + err);
    }

    private String serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        answer("/refused/leases", 401, "{\"error\":\"unauthorized\",\"message\":\"the bearer secret is wrong\"}");
        answer("/forbidden/leases", 403, "{\"message\":\"Forbidden\"}");
        answer("/gateway/leases", 500, "{\"message\":\"Internal Server Error\"}");
        server.createContext("/echo/leases", exchange -> { // a misbehaving proxy that echoes the request's headers
            byte[] body = ("<html>" + exchange.getRequestHeaders().getFirst("Authorization") + "</html>").getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(502, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
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

    private static Map<String, String> env(String... namesAndValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            env.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return env;
    }
}
