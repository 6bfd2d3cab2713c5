package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SNOWID_LEASE_AUTH=aws_iam java -jar snowid-agent-iam.jar check <url>}: every step signed
 * with this machine's credentials (the SDK's default chain), each request verified by botocore in
 * the proxy before the real local runner; a signature the API refuses fails the {@code signature}
 * step, a caller the function does not list the {@code principal} step.
 */
@ExtendWith(DynamoDbEngine.class)
class DeploymentCheckIamIT {

    private static final String KEY_ID = "AKIACHECKOPERATOR001";
    private static final String SECRET_KEY = "check-operator-secret/+=";
    private static final String CALLER = "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":user/check-operator";

    @TempDir
    Path dir;

    @Test
    void theIamCheckPassesWithEveryRequestSignedAndVerified(TestTable table) throws Exception {
        try (LeaseApi runner = LeaseApi.start(table, 13, 2);
             AwsStandIns standIns = AwsStandIns.start(new AwsStandIns.Options(runner.baseUri(), LeaseApi.SECRET)
                     .key(KEY_ID, SECRET_KEY, CALLER))) {
            ChildJvm.Result result = check(KEY_ID, standIns.proxy().toString());

            assertEquals(0, result.exitCode, result::toString);
            String[] lines = result.stdout.split("\\R");
            String[] steps = {"signature", "principal", "lease", "clock", "issue", "slot-map", "region", "ids", "release"};
            for (int i = 0; i < steps.length; i++) {
                assertTrue(lines[i + 1].startsWith(String.format("ok   %-9s ", steps[i])), result::toString);
            }
            assertTrue(lines[1].contains("AWS SigV4"), result::toString);
            assertEquals("check passed: 9 steps", lines[steps.length + 1], result::toString);
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), stats.toString());
            for (String request : List.of("POST /leases", "GET /leases", "GET /ids?count=3", "DELETE /leases/")) {
                assertTrue(stats.forwarded().stream().anyMatch(line -> line.startsWith(request)), request + " signed and verified: " + stats);
            }
            assertEquals(java.util.Set.of(CALLER), java.util.Set.copyOf(stats.callerOfKey().values()));
        }
    }

    @Test
    void aSignatureTheApiRefusesFailsTheSignatureStep(TestTable table) throws Exception {
        try (LeaseApi runner = LeaseApi.start(table, 13, 2);
             AwsStandIns standIns = AwsStandIns.start(new AwsStandIns.Options(runner.baseUri(), LeaseApi.SECRET)
                     .key(KEY_ID, SECRET_KEY, CALLER))) {
            ChildJvm.Result result = check("AKIAUNKNOWNTOTHEAPI1", standIns.proxy().toString());

            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stdout.contains("\nFAIL signature HTTP 403"), result::toString);
            assertFalse(result.stdout.contains("ok   "), "no step passed: " + result);
            assertEquals("check failed at step 'signature'", result.stderr.strip(), result::toString);
            assertFalse(standIns.stats().rejected().isEmpty(), "refused by the verifying proxy: " + standIns.stats());
        }
    }

    @Test
    void aCallerTheFunctionDoesNotListFailsThePrincipalStep() throws Exception {
        String refusal = "{\"error\":\"" + ErrorCode.FORBIDDEN.code() + "\",\"message\":\"the IAM caller " + CALLER
                + " is not listed in SNOWID_LEASE_PRINCIPALS (the template's LeasePrincipals), so it may not use the lease routes\"}";
        HttpServer function = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        function.createContext("/", exchange -> { // what the function answers a verified caller it does not list
            exchange.getRequestBody().readAllBytes();
            byte[] body = refusal.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(403, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        function.start();
        try {
            ChildJvm.Result result = check(KEY_ID, "http://127.0.0.1:" + function.getAddress().getPort());

            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stdout.contains("\nok   signature "), result::toString);
            assertTrue(result.stdout.contains("\nFAIL principal HTTP 403") && result.stdout.contains(CALLER)
                    && result.stdout.contains("SNOWID_LEASE_PRINCIPALS"), result::toString);
            assertEquals("check failed at step 'principal'", result.stderr.strip(), result::toString);
        } finally {
            function.stop(0);
        }
    }

    private ChildJvm.Result check(String keyId, String url) throws Exception {
        return ChildJvm.on(Jdk.all().get(0)).withIamAgent().isolatedFromAws(dir)
                .env("AWS_ACCESS_KEY_ID", keyId).env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
                .env("SNOWID_LEASE_AUTH", "aws_iam").env("SNOWID_LEASE_REGION", AwsStandIns.REGION)
                .runAgentJar(dir.resolve("check"), "check", url);
    }
}
