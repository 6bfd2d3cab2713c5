package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The lease API's release is {@code DELETE /leases/{slot}} with a JSON body. Java 7's
 * HttpURLConnection refused output on DELETE ("HTTP method DELETE doesn't support output",
 * JDK-7157360, fixed in Java 8); this checks, on the JDK running the tests, that the body
 * really reaches a server.
 */
class DeleteWithBodyTest {

    @Test
    void deleteCarriesItsBody() throws Exception {
        AtomicReference<String> received = new AtomicReference<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/leases/237", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                in.transferTo(body);
                received.set(exchange.getRequestMethod() + " " + body.toString(StandardCharsets.UTF_8));
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.start();
        try {
            URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/leases/237");
            HttpURLConnection connection = (HttpURLConnection) url.openConnection();
            connection.setRequestMethod("DELETE");
            connection.setDoOutput(true);
            byte[] body = "{\"owner\":\"ab\",\"fence\":3,\"lastIssued\":0}".getBytes(StandardCharsets.UTF_8);
            connection.setFixedLengthStreamingMode(body.length);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(body);
            }
            assertEquals(204, connection.getResponseCode());
            assertEquals("DELETE {\"owner\":\"ab\",\"fence\":3,\"lastIssued\":0}", received.get());
        } finally {
            server.stop(0);
        }
    }
}
