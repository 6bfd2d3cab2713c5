package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.protocol.BearerChallenge;
import dev.snowid.protocol.ErrorCode;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * How the client reads the lease API's answers, on canned HTTP answers (parsing logic; the real
 * API is exercised by the function's client tests and the lease-mode end-to-end tests).
 */
class HttpLeaseSourceTest {

    private static final String LEASE = "{\"slot\":289,\"datacenter\":9,\"machine\":1,\"owner\":\"00112233445566778899aabbccddeeff\","
            + "\"fence\":4,\"floor\":1700000000000,\"expiresAt\":1700000058000,\"epoch\":%d}";
    private static final Lease OURS = new Lease(Slot.of(9, 1), "00112233445566778899aabbccddeeff", 4,
            LeaseWindow.of(1_700_000_000_000L, 1_700_000_060_000L));

    private HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** Answers POST and PUT with the lease naming {@code epoch}, DELETE with 204; records each request. */
    private HttpLeaseSource answeringWithEpoch(long epoch, long clockAheadMillis) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/leases", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            if (exchange.getRequestMethod().equals("DELETE")) {
                exchange.sendResponseHeaders(204, -1);
            } else {
                byte[] body = String.format(LEASE, epoch).getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(exchange.getRequestMethod().equals("POST") ? 201 : 200, body.length);
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        return new HttpLeaseSource(new URL("http://127.0.0.1:" + server.getAddress().getPort()), () -> "secret", "test",
                () -> System.currentTimeMillis() + clockAheadMillis);
    }

    @Test
    void aRenewalIsReportedAsTheServerConfirmedItEvenWithAnEarlierExpiry() throws Exception {
        // Not the source's call to judge: LeasedGenerator gives such a lease up (a store never shortens one).
        HttpLeaseSource api = answeringWithEpoch(1_288_834_974_657L, 0);

        Lease renewed = api.renew(OURS);

        assertEquals(LeaseWindow.of(1_700_000_000_000L, 1_700_000_058_000L), renewed.window());
        assertEquals(OURS.owner(), renewed.owner());
        assertEquals(4, renewed.fence());
    }

    @Test
    void everyAnswerMeasuresThisClockAgainstTheApisDateHeader() throws Exception {
        HttpLeaseSource api = answeringWithEpoch(1_288_834_974_657L, 7_000);
        assertFalse(api.clockSkewMillis().isPresent(), "nothing measured before the first answer");
        api.acquire();
        long skew = api.clockSkewMillis().getAsLong();
        // The header has whole seconds; the estimate takes the middle of the second: off by at most 500 ms + half the round trip.
        assertTrue(skew > 6_000 && skew < 8_000, "a clock 7 s ahead measured as " + skew + " ms");
    }

    @Test
    void aLeaseNamingAnotherEpochThanExpectedIsReleasedAtOnceAndNeverUsed() throws Exception {
        HttpLeaseSource api = answeringWithEpoch(1_288_834_976_657L, 0); // 2 s off
        api.expectEpoch(1_288_834_974_657L);

        EpochMismatchException refused = assertThrows(EpochMismatchException.class, api::acquire);

        assertEquals(1_288_834_974_657L, refused.configuredEpochMillis());
        assertEquals(1_288_834_976_657L, refused.apiEpochMillis());
        assertTrue(refused.getMessage().contains("configure epoch 1288834976657"), refused.getMessage());
        assertEquals(List.of("POST /leases", "DELETE /leases/289"), requests, "granted, then released at once");
    }

    @Test
    void anEpochThatChangesUnderAHeldLeaseEndsIt() throws Exception {
        HttpLeaseSource api = answeringWithEpoch(1_288_834_976_657L, 0);
        api.expectEpoch(1_288_834_974_657L);
        LeaseLostException lost = assertThrows(LeaseLostException.class, () -> api.renew(OURS));
        assertTrue(lost.getMessage().contains("now issues IDs with epoch 1288834976657"), lost.getMessage());
    }

    @Test
    void withoutAnExpectedEpochTheApisIsLearnt() throws Exception {
        HttpLeaseSource api = answeringWithEpoch(1_600_000_000_000L, 0);
        assertFalse(api.epochMillis().isPresent());
        api.acquire();
        assertEquals(1_600_000_000_000L, api.epochMillis().getAsLong());
    }

    /** Answers every call with {@code status} and the API's error body, as the function refuses a secret. */
    private HttpLeaseSource refusing(int status) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/leases", exchange -> {
            exchange.getRequestBody().readAllBytes();
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath());
            byte[] body = "{\"error\":\"unauthorized\",\"message\":\"the bearer secret is wrong\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add(BearerChallenge.HEADER, BearerChallenge.of("the bearer secret is wrong"));
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return new HttpLeaseSource(new URL("http://127.0.0.1:" + server.getAddress().getPort()), () -> "wrong", "test");
    }

    @Test
    void aRefusedSecretIsItsOwnFailureNotAnOutage() throws Exception {
        for (int status : new int[] {401, 403}) {
            HttpLeaseSource api = refusing(status);
            Executable[] calls = {api::acquire, () -> api.renew(OURS), () -> api.release(OURS, 0), api::slotMap};
            for (Executable call : calls) {
                LeaseSecretRefusedException refused = assertThrows(LeaseSecretRefusedException.class, call);
                assertEquals(status, refused.status());
                assertTrue(refused.getMessage().contains("refused the credentials"), refused.getMessage());
                // A streamed request's 401 has no readable body: the API's words come from its challenge (BearerChallenge).
                assertTrue(refused.getMessage().contains("unauthorized: the bearer secret is wrong"), refused.getMessage());
                assertEquals(ErrorCode.UNAUTHORIZED, refused.code(), refused::getMessage);
                assertEquals(LeaseSecretRefusedException.MIN_RETRY_AFTER_MILLIS, refused.retryAfterMillis(),
                        "not retried like an outage (1 s)");
            }
            stop();
        }
    }

    @Test
    void aGeneratorAsksARefusingApiAgainOnlyAfterTheRefusalsRetryAfter() throws Exception {
        HttpLeaseSource api = refusing(401);
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        LeasedGenerator generator = LeasedGenerator.builder(api, LeaseTerms.DEFAULT, now::get, SnowflakeCodec.TWITTER)
                .renewInBackground().build();
        assertThrows(LeaseSecretRefusedException.class, generator::maintainLease);
        now.addAndGet(LeaseSecretRefusedException.MIN_RETRY_AFTER_MILLIS - 1);
        assertFalse(generator.maintainLease(), "backing off: the API is not asked");
        assertEquals(1, requests.size(), requests::toString);
        now.addAndGet(1);
        assertThrows(LeaseSecretRefusedException.class, generator::maintainLease);
        assertEquals(2, requests.size(), requests::toString);
    }
}
