package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.IdUnavailableException;
import dev.snowid.WallClock;
import dev.snowid.client.auth.AwsSigning;
import dev.snowid.client.auth.RequestAuthorizer;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.lease.RequestIdConflictException;
import dev.snowid.testing.protocol.LeaseApiContract.Exchange;
import dev.snowid.testing.protocol.LeaseApiContract;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.LeaseRoute;
import dev.snowid.protocol.SlotMap;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The client's side of the lease API's contract: for every exchange, it sends exactly the
 * request written there and makes of the answer what is written there. (The function's side of
 * the same exchanges: {@code LeaseApiContractHandlerTest} in the lambda module.)
 */
class LeaseApiContractClientTest {

    private static final String SECRET = "contract-2cef72781edf62af544ec695469bad60c2f7aee4ba47d63778a607e09e8a0057";
    private static final String KEY_ID = "AKIACONTRACTTEST0001";
    private static final long SECONDS = 7;

    private HttpServer server;
    private final List<String> received = new CopyOnWriteArrayList<>();

    static Stream<Exchange> exchanges() {
        return LeaseApiContract.exchanges().stream();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void theClientSendsTheRequestAndReadsTheAnswer(Exchange exchange) throws Exception {
        Lease lease = LeaseApiContract.LEASE;
        String answer = LeaseApiContract.fill(exchange.answerBody, lease, LeaseApiContract.HOLDER, LeaseApiContract.LAST_ISSUED,
                "what went wrong", SECONDS);
        HttpLeaseSource api = answering(exchange, answer);

        Object seen = callAndCatch(api, exchange.route, lease);

        String authorization = exchange.iamCaller == null ? "Bearer " + SECRET
                : "AWS4-HMAC-SHA256 Credential=" + KEY_ID + "/"; // the signature itself: botocore checks it (lambda's SignaturesUnderBotocoreTest)
        String body = LeaseApiContract.fill(exchange.requestBody, lease, LeaseApiContract.HOLDER, LeaseApiContract.LAST_ISSUED, "", 0);
        String prefix = exchange.route.method() + " " + exchange.route.path(lease.slot()) + " " + authorization;
        assertEquals(1, received.size(), "one call");
        String sent = received.get(0);
        // The body exact but for the acquisition id, which the client draws: that is held to its shape.
        String sentBody = sent.substring(sent.lastIndexOf(' ') + 1);
        assertTrue(sent.startsWith(prefix) && LeaseApiContract.matches(body, sentBody), "expected " + prefix + "... " + body
                + ", got " + sent);
        if (exchange.clientSees == Lease.class) {
            assertTrue(seen instanceof Lease, () -> "a lease, not " + seen);
            Lease read = (Lease) seen;
            assertEquals(lease.slot(), read.slot());
            assertEquals(lease.owner(), read.owner());
            assertEquals(lease.fence(), read.fence());
            assertEquals(lease.window(), read.window());
            assertEquals(LeaseApiContract.EPOCH, api.epochMillis().getAsLong(), "the epoch the API issues with comes with every lease");
        } else if (exchange.clientSees == SlotMap.class) {
            assertTrue(seen instanceof SlotMap, () -> "a slot map, not " + seen);
            SlotMap map = (SlotMap) seen;
            assertEquals(LeaseApiContract.NOW, map.now());
            assertEquals(1, map.parts().size());
            assertEquals(1, map.parts().get(0).held());
            assertEquals(lease.window().expiresAt(), map.parts().get(0).earliestExpiry());
            assertEquals(1, map.leases().size());
            HeldSlot held = map.leases().get(0).lease();
            assertEquals(lease.slot(), held.slot());
            assertEquals(LeaseApiContract.HOLDER, held.holder());
            assertEquals(lease.fence(), held.fence());
            assertEquals(lease.window().floor(), held.floor());
            assertEquals(lease.window().expiresAt(), held.expiresAt());
        } else if (exchange.clientSees == Void.class) {
            assertEquals(null, seen);
        } else {
            assertEquals(THROWN_FOR.get(exchange.clientSees), seen == null ? null : seen.getClass(), () -> "for " + seen);
            // A 401 to a streamed request has no readable body: its message comes from the challenge (BearerChallenge).
            assertTrue(((Exception) seen).getMessage().contains("what went wrong"), "the API's message is passed on");
            if (seen instanceof LeaseSecretRefusedException && exchange.answerBody.contains("\"error\"")) {
                assertEquals(exchange.status == 401 ? ErrorCode.UNAUTHORIZED : ErrorCode.FORBIDDEN,
                        ((LeaseSecretRefusedException) seen).code(), "the API's code is passed on");
            }
            if (seen instanceof IdUnavailableException && exchange.answerHeaders.containsKey("Retry-After")) {
                assertEquals(SECONDS * 1000, ((IdUnavailableException) seen).retryAfterMillis());
            }
        }
    }

    /** The exception the client throws for each failure the contract names. */
    private static final Map<LeaseRoute.Failure, Class<?>> THROWN_FOR = new EnumMap<>(LeaseRoute.Failure.class);

    static {
        THROWN_FOR.put(LeaseRoute.Failure.NO_FREE_SLOT, NoFreeSlotException.class);
        THROWN_FOR.put(LeaseRoute.Failure.LEASE_LOST, LeaseLostException.class);
        THROWN_FOR.put(LeaseRoute.Failure.CREDENTIALS_REFUSED, LeaseSecretRefusedException.class);
        THROWN_FOR.put(LeaseRoute.Failure.UNAVAILABLE, LeaseStoreUnavailableException.class);
        THROWN_FOR.put(LeaseRoute.Failure.REQUEST_ID_CONFLICT, RequestIdConflictException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exchanges")
    void aRenamedFieldInAnAnswerIsNeverTakenForALease(Exchange exchange) throws Exception {
        if (exchange.clientSees != Lease.class) {
            return;
        }
        String answer = LeaseApiContract.fill(exchange.answerBody, LeaseApiContract.LEASE, LeaseApiContract.HOLDER, 0, "", 0)
                .replace("\"expiresAt\"", "\"expires_at\"");
        HttpLeaseSource api = answering(exchange, answer);
        assertThrows(IdUnavailableException.class, () -> {
            if (exchange.route == LeaseRoute.ACQUIRE) {
                api.acquire();
            } else {
                api.renew(LeaseApiContract.LEASE);
            }
        });
    }

    /** The lease, null (release), or what was thrown. */
    private static Object callAndCatch(HttpLeaseSource api, LeaseRoute route, Lease lease) {
        try {
            if (route == LeaseRoute.ACQUIRE) {
                return api.acquire();
            }
            if (route == LeaseRoute.RENEW) {
                return api.renew(lease);
            }
            if (route == LeaseRoute.SLOT_MAP) {
                return api.slotMap();
            }
            api.release(lease, LeaseApiContract.LAST_ISSUED);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    private HttpLeaseSource answering(Exchange exchange, String answer) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", http -> {
            byte[] body = http.getRequestBody().readAllBytes();
            received.add(http.getRequestMethod() + " " + http.getRequestURI().getPath() + " "
                    + http.getRequestHeaders().getFirst("Authorization") + " " + new String(body, StandardCharsets.UTF_8));
            for (Map.Entry<String, String> header : exchange.answerHeaders.entrySet()) {
                http.getResponseHeaders().add(header.getKey(), header.getValue().replace("%SECONDS%", Long.toString(SECONDS))
                        .replace("%MESSAGE%", "\"what went wrong\""));
            }
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            if (out.length > 0) {
                http.getResponseHeaders().add("Content-Type", "application/json");
            }
            http.sendResponseHeaders(exchange.status, out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                http.getResponseBody().write(out);
            }
            http.close();
        });
        server.start();
        URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/");
        if (exchange.iamCaller != null) {
            return new HttpLeaseSource(url, signingAs(url), LeaseApiContract.HOLDER, WallClock.SYSTEM);
        }
        return new HttpLeaseSource(url, () -> SECRET, LeaseApiContract.HOLDER);
    }

    /** The SDK's default chain, its first source being system properties: static credentials for this test. */
    private static RequestAuthorizer signingAs(URL url) {
        System.setProperty("aws.accessKeyId", KEY_ID);
        System.setProperty("aws.secretAccessKey", "contract-test-secret");
        return AwsSigning.defaultCredentials().region("eu-west-1").authorizerFor(url);
    }

    @AfterEach
    void forgetTheCredentials() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
    }
}
