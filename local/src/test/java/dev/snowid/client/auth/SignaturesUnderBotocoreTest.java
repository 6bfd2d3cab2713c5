package dev.snowid.client.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.local.LocalRunner;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The client's SigV4 headers, checked by an independent implementation: botocore, in the proxy
 * before the real local runner, recomputes each signature over the bytes that arrived. Requests
 * whose path, query and body need encoding verify; a wrong key, a body changed after signing and
 * a request dated more than 5 minutes back do not, and never reach the runner.
 */
@ExtendWith(DynamoDbEngine.class)
class SignaturesUnderBotocoreTest {

    private static final String KEY_ID = "AKIASIGNATURETEST001";
    private static final String SECRET_KEY = "signature-test-secret/with+odd=chars";
    private static final String CALLER = "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":user/signature-test";
    private static final String UPSTREAM_SECRET = "signature-test-upstream-6f3d1c9a0b8e47d2a5c1e9f07b3d6a2c8e4f1b0d9a7c5e3f";

    @Test
    void requestsWhosePathQueryAndBodyNeedEncodingVerify(TestTable table) throws IOException {
        try (Setup setup = new Setup(table)) {
            SigV4Signer signer = signer(SECRET_KEY, Clock.systemUTC());
            List<String> targets = List.of(
                    "/leases",
                    "/leases/caf%C3%A9%20au%20lait",
                    "/leases/a%2Fb/..%2F/x~y",
                    "/leases/%E2%82%AC%2B%21%2A%27%28%29",
                    // Queries as the client would send them: in canonical form (sorted, RFC 3986 encoded).
                    "/leases?a=1&empty=&holder=a%20b&z=%2A~%2F%3D",
                    "/leases?%C3%A9t%C3%A9=%E2%98%83");
            for (String target : targets) {
                byte[] body = "{\"holder\":\"snow \\u2603 ☃ \\\"q\\\" & <b> é\",\"n\":[1,2]}".getBytes(StandardCharsets.UTF_8);
                Answer answer = send(signer, "POST", setup.url(target), body, body);
                assertNotEquals(403, answer.status, target + ": " + answer);
                assertEquals(CALLER, answer.verifiedCaller, target + " reached the runner verified: " + answer);
            }
            for (String method : List.of("GET", "PUT", "DELETE")) {
                Answer answer = send(signer, method, setup.url("/leases/3-1%20x"), new byte[0], null);
                assertEquals(CALLER, answer.verifiedCaller, method + ": " + answer);
            }
            StandInStats stats = setup.standIns.stats();
            assertEquals(List.of(), stats.rejected());
            assertEquals(targets.size() + 3, stats.verified());
        }
    }

    @Test
    void aSignatureFromAWrongKeyFails(TestTable table) throws IOException {
        try (Setup setup = new Setup(table)) {
            byte[] body = acquireBody();
            Answer good = send(signer(SECRET_KEY, Clock.systemUTC()), "POST", setup.url("/leases"), body, body);
            assertEquals(201, good.status, "the same request with the right key is granted: " + good);

            Answer wrong = send(signer(SECRET_KEY + "x", Clock.systemUTC()), "POST", setup.url("/leases"), body, body);
            assertEquals(403, wrong.status, wrong.toString());
            assertTrue(wrong.body.contains("signature we calculated does not match"), wrong.toString());
            assertRefusedBeforeTheRunner(setup, 1);
        }
    }

    @Test
    void aBodyChangedAfterSigningFails(TestTable table) throws IOException {
        try (Setup setup = new Setup(table)) {
            byte[] signed = acquireBody();
            byte[] sent = new String(signed, StandardCharsets.UTF_8).replace("tamper-test", "tamper-tesT").getBytes(StandardCharsets.UTF_8);
            assertEquals(signed.length, sent.length);
            Answer answer = send(signer(SECRET_KEY, Clock.systemUTC()), "POST", setup.url("/leases"), signed, sent);
            assertEquals(403, answer.status, answer.toString());
            assertTrue(answer.body.contains("signature we calculated does not match"), answer.toString());
            assertRefusedBeforeTheRunner(setup, 0);
        }
    }

    @Test
    void aRequestDatedMoreThanFiveMinutesBackFails(TestTable table) throws IOException {
        try (Setup setup = new Setup(table)) {
            byte[] body = acquireBody();
            Clock sixMinutesBack = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-6));
            Answer answer = send(signer(SECRET_KEY, sixMinutesBack), "POST", setup.url("/leases"), body, body);
            assertEquals(403, answer.status, answer.toString());
            assertTrue(answer.body.contains("Signature expired"), answer.toString());

            Clock fourMinutesBack = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(-4));
            Answer inTime = send(signer(SECRET_KEY, fourMinutesBack), "POST", setup.url("/leases"), body, body);
            assertEquals(201, inTime.status, "within 5 minutes it is still valid: " + inTime);
            assertRefusedBeforeTheRunner(setup, 1);
        }
    }

    private static void assertRefusedBeforeTheRunner(Setup setup, int forwarded) {
        StandInStats stats = setup.standIns.stats();
        assertEquals(1, stats.rejected().size(), stats.toString());
        assertEquals(forwarded, stats.forwarded().size(), "only the valid requests reached the runner: " + stats);
    }

    private static byte[] acquireBody() {
        return "{\"holder\":\"tamper-test\"}".getBytes(StandardCharsets.UTF_8);
    }

    private static SigV4Signer signer(String secretKey, Clock clock) {
        return new SigV4Signer(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY_ID, secretKey)), AwsStandIns.REGION, clock);
    }

    /** Signs {@code signedBody}, sends {@code sentBody}: as the client's HttpLeaseSource does, over HttpURLConnection. */
    private static Answer send(RequestAuthorizer signer, String method, URL url, byte[] signedBody, byte[] sentBody) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) url.openConnection();
        connection.setRequestMethod(method);
        connection.setConnectTimeout(3_000);
        connection.setReadTimeout(20_000);
        connection.setRequestProperty("Accept", "application/json");
        if (sentBody != null) {
            connection.setRequestProperty("Content-Type", "application/json");
        }
        for (Map.Entry<String, String> header : signer.headers(method, url, signedBody).entrySet()) {
            connection.setRequestProperty(header.getKey(), header.getValue());
        }
        if (sentBody != null) {
            connection.setDoOutput(true);
            try (OutputStream out = connection.getOutputStream()) {
                out.write(sentBody);
            }
        }
        int status = connection.getResponseCode();
        InputStream in = status >= 400 ? connection.getErrorStream() : connection.getInputStream();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        if (in != null) {
            try (InputStream stream = in) {
                stream.transferTo(bytes);
            }
        }
        Answer answer = new Answer(status, bytes.toString(StandardCharsets.UTF_8), connection.getHeaderField("X-Verified-Caller"));
        connection.disconnect();
        return answer;
    }

    private record Answer(int status, String body, String verifiedCaller) {
    }

    /** The real local runner on a real engine, and the verifying proxy before it. */
    private static final class Setup implements AutoCloseable {
        final LocalRunner runner;
        final AwsStandIns standIns;

        Setup(TestTable table) {
            Map<String, String> env = new HashMap<>(dev.snowid.local.sigv4.CredentialSourcesTest.runnerEnvironment(table));
            env.put(dev.snowid.local.LocalSettings.LOCAL_LEASE_SECRET, UPSTREAM_SECRET);
            runner = LocalRunner.start(env);
            standIns = AwsStandIns.start(new AwsStandIns.Options(runner.baseUri(), UPSTREAM_SECRET).key(KEY_ID, SECRET_KEY, CALLER));
        }

        URL url(String target) throws IOException {
            return new URL(standIns.proxy() + target);
        }

        @Override
        public void close() {
            standIns.close();
            runner.close();
        }
    }
}
