package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the client reads the lease API's answers, on a canned HTTP answer (pure parsing logic; the
 * real API is exercised by the lease-mode end-to-end tests).
 */
class HttpLeaseSourceTest {

    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private HttpLeaseSource answering(String path, int status, String json) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext(path, exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return new HttpLeaseSource(new URL("http://127.0.0.1:" + server.getAddress().getPort()), () -> "secret", "test");
    }

    @Test
    void aRenewalIsReportedAsTheServerConfirmedItEvenWithAnEarlierExpiry() throws Exception {
        // Not the source's call to judge: LeasedGenerator gives such a lease up (a store never shortens one).
        Lease ours = new Lease(Slot.of(9, 1), "00112233445566778899aabbccddeeff", 4, LeaseWindow.of(1_700_000_000_000L, 1_700_000_060_000L));
        HttpLeaseSource api = answering("/leases/289", 200, "{\"slot\":289,\"datacenter\":9,\"machine\":1,"
                + "\"owner\":\"00112233445566778899aabbccddeeff\",\"fence\":4,\"floor\":1700000000000,\"expiresAt\":1700000058000}");

        Lease renewed = api.renew(ours);

        assertEquals(LeaseWindow.of(1_700_000_000_000L, 1_700_000_058_000L), renewed.window());
        assertEquals(ours.owner(), renewed.owner());
        assertEquals(4, renewed.fence());
    }
}
