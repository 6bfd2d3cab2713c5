package dev.snowid.protocol;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

/**
 * A lease API that only ever says no, as the function, API Gateway or a misbehaving proxy in front
 * would: for tests of what each front end shows when a lease request fails. Each {@link Answer}
 * has its own base URL, under which {@code /leases} and {@code /leases/{slot}} answer so.
 */
public final class CannedLeaseApi implements AutoCloseable {

    /** How the API at one base URL answers every lease request. */
    public enum Answer {
        /** The function's 401: {@code {"error":"unauthorized",…}}. */
        REFUSED(401, "{\"error\":\"unauthorized\",\"message\":\"the bearer secret is wrong\"}"),
        /** API Gateway's 403, the bearer authorizer's refusal. */
        FORBIDDEN(403, "{\"message\":\"Forbidden\"}"),
        /** API Gateway's 500: the function (or its authorizer) failed or did not start. */
        GATEWAY_ERROR(500, "{\"message\":\"Internal Server Error\"}"),
        /** A proxy's 502 page that echoes the request's {@code Authorization} header. */
        ECHO(502, null);

        final int status;
        final String json;

        Answer(int status, String json) {
            this.status = status;
            this.json = json;
        }

        String path() {
            return "/" + name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final HttpServer server;

    private CannedLeaseApi(HttpServer server) {
        this.server = server;
    }

    public static CannedLeaseApi start() {
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Answer answer : Answer.values()) {
            server.createContext(answer.path() + LeaseRoute.LEASES, exchange -> {
                exchange.getRequestBody().readAllBytes();
                byte[] body = (answer.json != null ? answer.json
                        : "<html>" + exchange.getRequestHeaders().getFirst("Authorization") + "</html>").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", answer.json != null ? "application/json" : "text/html");
                exchange.sendResponseHeaders(answer.status, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
        }
        server.start();
        return new CannedLeaseApi(server);
    }

    /** The base URL whose lease routes answer so. */
    public String url(Answer answer) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + answer.path();
    }

    /** A loopback base URL nothing listens on. */
    public static String nobodyListening() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
