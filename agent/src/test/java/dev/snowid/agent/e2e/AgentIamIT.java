package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code snowid.lease.auth=aws_iam}: agent JVMs with snowid-agent-iam.jar sign their lease
 * requests with SigV4, checked by botocore in the verifying proxy before the real local runner.
 * Also: an application's own AWS SDK v2 stays its own, the plain jar refuses IAM naming the IAM
 * jar, and credentials that expire every minute are renewed for three minutes.
 */
@ExtendWith(DynamoDbEngine.class)
class AgentIamIT {

    private static final int DATACENTER = 12;
    private static final String KEY_ID = "AKIAAGENTWORKLOAD001";
    private static final String SECRET_KEY = "agent-workload-secret/+=";
    private static final String CALLER = "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":user/agent-workload";

    @TempDir
    Path dir;

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void theIamAgentSignsEveryLeaseRouteItUses(Jdk jdk, TestTable table) throws Exception {
        try (LeaseApi runner = LeasedAgents.api(table, DATACENTER);
             AwsStandIns standIns = AwsStandIns.start(options(runner).key(KEY_ID, SECRET_KEY, CALLER))) {
            Path ids = dir.resolve("ids");
            ChildJvm.Result result = signed(jdk, standIns).env("AWS_ACCESS_KEY_ID", KEY_ID).env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
                    .run(ids, "com.acme.legacy.LeasedApp", ids.toString(), "4000");
            assertEquals(0, result.exitCode, result::toString);
            assertTrue(result.stdout.contains("DONE "), result::toString);
            assertTrue(result.stderr.contains("with AWS SigV4 (execute-api, " + AwsStandIns.REGION + ")"), result::toString);
            assertTrue(result.stderr.contains("\"event\":\"released\""), result::toString);
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), stats.toString());
            for (String route : List.of("POST /leases", "PUT /leases/", "DELETE /leases/")) {
                assertTrue(stats.forwarded().stream().anyMatch(line -> line.startsWith(route)), route + " signed and verified: " + stats);
            }
            assertEquals(java.util.Set.of(CALLER), java.util.Set.copyOf(stats.callerOfKey().values()));
            assertTrue(IdsFile.read(ids).length > 0);

            // The slot map for operators, signed the same way: java -jar snowid-agent-iam.jar leases <url>.
            ChildJvm.Result grid = ChildJvm.on(jdk).withIamAgent().isolatedFromAws(dir).env("AWS_ACCESS_KEY_ID", KEY_ID)
                    .env("AWS_SECRET_ACCESS_KEY", SECRET_KEY).env("SNOWID_LEASE_AUTH", "aws_iam")
                    .env("SNOWID_LEASE_REGION", AwsStandIns.REGION).runAgentJar(dir.resolve("grid"), "leases", standIns.proxy().toString());
            assertEquals(0, grid.exitCode, grid::toString);
            assertTrue(standIns.stats().forwarded().contains("GET /leases"), "GET /leases signed and verified: " + standIns.stats());
        }
    }

    @Test
    void anApplicationWithItsOwnAwsSdkKeepsItWhileTheAgentSignsWithItsRelocatedOne(TestTable table) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        try (LeaseApi runner = LeasedAgents.api(table, DATACENTER);
             AwsStandIns standIns = AwsStandIns.start(options(runner).key(KEY_ID, SECRET_KEY, CALLER))) {
            Path ids = dir.resolve("own-sdk");
            ChildJvm.Result result = signed(jdk, standIns).env("AWS_ACCESS_KEY_ID", KEY_ID).env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
                    .classPath(ChildJvm.FIXTURE_CLASSES, ChildJvm.FIXTURE_AWS_SDK)
                    .run(ids, "com.acme.legacy.OwnAwsSdkApp", ids.toString(), "3000");
            assertEquals(0, result.exitCode, result::toString);
            String location = line(result.stdout, "APP_SDK ");
            assertTrue(location.contains("/software/amazon/awssdk/http-auth-aws/") && !location.contains("snowid-agent"),
                    "the application's signer class is its own SDK's: " + location);
            assertTrue(line(result.stdout, "APP_SIGNED ").startsWith("AWS4-HMAC-SHA256 Credential=AKIAAPPOWNKEY0000001/"), result::toString);
            assertTrue(result.stdout.contains("DONE "), result::toString);
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), stats.toString());
            assertTrue(stats.verified() >= 3, "the agent signed its own lease requests: " + stats);
        }
    }

    @Test
    void thePlainAgentJarRefusesAwsIamNamingTheIamJar(TestTable table) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        try (LeaseApi runner = LeasedAgents.api(table, DATACENTER)) {
            Path ids = dir.resolve("plain");
            ChildJvm.Result result = ChildJvm.on(jdk).isolatedFromAws(dir)
                    .property("snowid.lease.url", runner.baseUri().toString())
                    .property("snowid.lease.auth", "aws_iam")
                    .property("snowid.lease.region", AwsStandIns.REGION)
                    .property("snowid.targets", LeasedAgents.TARGET)
                    .run(ids, "com.acme.legacy.LeasedApp", ids.toString(), "1000");
            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("snowid.lease.auth=aws_iam needs snowid-agent-iam.jar"), result::toString);
        }
    }

    @Test
    void anAgentRenewingForThreeMinutesWithInstanceCredentialsThatExpireEveryMinuteSignsWithFreshOnes(TestTable table) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        try (LeaseApi runner = LeasedAgents.api(table, DATACENTER);
             AwsStandIns standIns = AwsStandIns.start(options(runner).credentialsValidFor(Duration.ofSeconds(60)))) {
            Path ids = dir.resolve("expiring");
            Process app = signed(jdk, standIns).env("AWS_EC2_METADATA_SERVICE_ENDPOINT", standIns.instanceMetadata().toString())
                    .env("AWS_EC2_METADATA_DISABLED", "false")
                    .start(ids, "com.acme.legacy.LeasedApp", ids.toString(), Long.toString(Duration.ofMinutes(3).toMillis()));
            boolean ended = app.waitFor(5, TimeUnit.MINUTES);
            if (!ended) {
                app.destroyForcibly().waitFor();
            }
            ChildJvm.Result result = ChildJvm.Result.of(ids, ended ? app.exitValue() : -1);
            assertEquals(0, result.exitCode, result::toString);
            assertTrue(result.stdout.contains("DONE "), "it issued IDs for three minutes without a refusal: " + result);
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), "no request was signed with expired credentials: " + stats);
            long renewals = stats.forwarded().stream().filter(line -> line.startsWith("PUT /leases/")).count();
            assertTrue(renewals >= 60, "a 5 s lease renewed about every 2.5 s: " + renewals);
            assertTrue(stats.keysUsed().size() >= 3, "fresh instance credentials at least every minute: " + stats.keysUsed());
            assertTrue(stats.imdsTokens() >= 1 && stats.imdsRefusedWithoutToken() == 0, "IMDSv2 only: " + stats);
            assertFalse(result.stderr.contains("\"event\":\"lost\""), result::toString);
        }
    }

    private static AwsStandIns.Options options(LeaseApi runner) {
        return new AwsStandIns.Options(runner.baseUri(), LeaseApi.SECRET);
    }

    /** An agent JVM with the IAM jar, leasing through the proxy, with no AWS setting of this JVM's. */
    private ChildJvm signed(Jdk jdk, AwsStandIns standIns) {
        return ChildJvm.on(jdk).withIamAgent().isolatedFromAws(dir)
                .property("snowid.lease.url", standIns.proxy().toString())
                .property("snowid.lease.auth", "aws_iam")
                .property("snowid.lease.region", AwsStandIns.REGION)
                .property("snowid.lease.auditAtInfo", "true") // the tests read lease events from the audit lines
                .property("snowid.targets", LeasedAgents.TARGET);
    }

    private static String line(String output, String prefix) {
        return output.lines().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length())).findFirst()
                .orElse("(no line " + prefix + ")");
    }
}
