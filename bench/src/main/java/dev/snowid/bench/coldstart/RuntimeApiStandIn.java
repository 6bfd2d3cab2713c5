package dev.snowid.bench.coldstart;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.HttpApiEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the Lambda Runtime API, enough for AWS's runtime interface client to run the
 * function jar as Lambda does: {@code local/scripts/cold-start-ric.sh} starts it once, then for
 * each measured run (the one before killed) arms one invocation ({@code POST /arm}) and starts a JVM under the client
 * with {@code AWS_LAMBDA_RUNTIME_API} pointing here. The client's {@code next} gets one
 * {@code GET /ids} event (API Gateway, payload 2.0) per arm and otherwise waits; the time the
 * answer arrives is kept ({@code GET /done}: "count ms answer"; {@code ?after=N} waits for the next). Errors the client reports are kept
 * the same way, so the script fails on them. Loopback only; it stops by itself after an hour.
 *
 * <p>Argument: the file to write the bound port to.
 */
public final class RuntimeApiStandIn {

    private static final String PREFIX = "/2018-06-01/runtime/";
    private static final byte[] EVENT = HttpApiEvent.request("GET", "/ids").routeKey(Endpoint.routeKeyOf("GET", "/ids"))
            .userAgent("cold-start").requestId("cold-start").json().getBytes(StandardCharsets.UTF_8);

    private final AtomicInteger invocations = new AtomicInteger();
    private int arms;
    private int served;
    private String done = "0 0 -";
    private int answers;

    private RuntimeApiStandIn() {
    }

    public static void main(String[] args) throws Exception {
        RuntimeApiStandIn standIn = new RuntimeApiStandIn();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "runtime-api");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/", standIn::handle);
        server.start();
        java.nio.file.Files.writeString(java.nio.file.Path.of(args[0]), Integer.toString(server.getAddress().getPort()));
        Thread.sleep(TimeUnit.HOURS.toMillis(1));
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        byte[] body = exchange.getRequestBody().readAllBytes();
        long receivedAt = System.currentTimeMillis();
        try {
            if (path.equals("/arm")) {
                synchronized (this) {
                    arms++;
                }
                reply(exchange, 200, "armed");
            } else if (path.equals("/done")) {
                reply(exchange, 200, doneAfter(exchange.getRequestURI().getQuery()));
            } else if (path.equals(PREFIX + "invocation/next")) {
                next(exchange);
            } else if (path.startsWith(PREFIX + "invocation/") && path.endsWith("/response")) {
                answered(receivedAt, new String(body, StandardCharsets.UTF_8));
                reply(exchange, 202, "{\"status\":\"OK\"}");
            } else if (path.endsWith("/error")) { // invocation/{id}/error and init/error
                answered(receivedAt, "error " + path + " " + new String(body, StandardCharsets.UTF_8));
                reply(exchange, 202, "{\"status\":\"OK\"}");
            } else {
                reply(exchange, 404, "{\"errorMessage\":\"not a Runtime API path: " + path + "\"}");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply(exchange, 500, "interrupted");
        }
    }

    /**
     * One event per arm, to a {@code next} that arrives after it: the client of the run before asks
     * again right after its answer and is then killed, so a {@code next} that finds nothing armed
     * waits (as between invocations on Lambda), a minute at most, and never gets a later run's event.
     */
    private void next(HttpExchange exchange) throws IOException, InterruptedException {
        boolean serve;
        synchronized (this) {
            serve = arms > served;
            if (serve) {
                served++;
            }
        }
        if (!serve) {
            Thread.sleep(TimeUnit.MINUTES.toMillis(1));
            reply(exchange, 500, "{\"errorMessage\":\"no invocation armed\"}");
            return;
        }
        String id = "cold-start-" + invocations.incrementAndGet();
        exchange.getResponseHeaders().add("Lambda-Runtime-Aws-Request-Id", id);
        exchange.getResponseHeaders().add("Lambda-Runtime-Deadline-Ms", Long.toString(System.currentTimeMillis() + 15_000));
        exchange.getResponseHeaders().add("Lambda-Runtime-Invoked-Function-Arn",
                "arn:aws:lambda:us-east-1:123456789012:function:snowid-cold-start");
        exchange.getResponseHeaders().add("Lambda-Runtime-Trace-Id", "Root=1-5759e988-bd862e3fe1be46a994272793;Sampled=0");
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, EVENT.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(EVENT);
        }
    }

    private synchronized void answered(long receivedAt, String answer) {
        answers++;
        done = answers + " " + receivedAt + " " + answer.replace('\n', ' ');
        notifyAll();
    }

    /**
     * With {@code after=N}, waits (a minute at most) until more than N answers came: one waiting call
     * instead of a polling loop, whose processes would take CPU from the JVM being measured.
     */
    private synchronized String doneAfter(String query) throws InterruptedException {
        if (query != null && query.startsWith("after=")) {
            int after = Integer.parseInt(query.substring("after=".length()));
            long deadline = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(1);
            while (answers <= after && System.currentTimeMillis() < deadline) {
                wait(Math.max(1, deadline - System.currentTimeMillis()));
            }
        }
        return done;
    }

    private static void reply(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
