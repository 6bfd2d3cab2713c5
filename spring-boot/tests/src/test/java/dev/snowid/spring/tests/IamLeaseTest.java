package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.client.SnowidClient;
import dev.snowid.protocol.LeaseAuthMode;
import dev.snowid.testing.leaseapi.LeaseApi;
import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code snowid.lease.auth=aws_iam}: the app signs every lease request with SigV4 (the AWS SDK's
 * signer, credentials from its default chain: here the system properties it reads first), and a
 * proxy verifies each signature with botocore before passing it to the real lease API. A refused
 * signature and a class path without the SDK stop start-up with a report naming what to do.
 */
@ExtendWith(OutputCaptureExtension.class)
class IamLeaseTest {

    private static final String KEY_ID = "AKIASTARTERWORKLOAD1";
    private static final String SECRET_KEY = "starter-workload-secret/+=";
    private static final String CALLER = "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":role/orders-api";

    @TempDir
    Path dir;

    @BeforeEach
    void credentials() {
        System.setProperty("aws.accessKeyId", KEY_ID);
        System.setProperty("aws.secretAccessKey", SECRET_KEY);
    }

    @AfterEach
    void noCredentials() {
        System.clearProperty("aws.accessKeyId");
        System.clearProperty("aws.secretAccessKey");
    }

    @Test
    void theAppLeasesRenewsAndReleasesWithEveryRequestSignedAndVerified(CapturedOutput output) throws Exception {
        try (LeaseApi api = LeaseApi.start(4);
             AwsStandIns standIns = AwsStandIns.start(new AwsStandIns.Options(api.baseUri(), LeaseApi.SECRET)
                     .key(KEY_ID, SECRET_KEY, CALLER))) {
            try (ConfigurableApplicationContext app = signed(standIns).run()) {
                SnowidClient ids = app.getBean(SnowidClient.class);
                assertEquals(LeaseAuthMode.AWS_IAM, ids.leaseAuth());
                Slot slot = ids.currentLease().orElseThrow().slot();
                assertEquals(slot, ids.codec().decode(ids.nextId()).slot());
                long renewedAfter = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LeaseApi.LEASE_MILLIS);
                while (ids.stats().renewals() == 0 && System.nanoTime() < renewedAfter) {
                    Thread.sleep(50); // a 5 s lease is renewed once less than half is left
                }
                assertTrue(ids.stats().renewals() > 0, "renewed, signed: " + ids.stats());

                Http http = new Http(Apps.port(app));
                Map<String, Object> details = Http.map(Http.json(http.get("/actuator/health/snowid")).get("details"));
                assertEquals("aws_iam", details.get("leaseAuth"), details::toString);
                String health = http.get("/actuator/health/snowid").body();
                assertFalse(health.contains(KEY_ID) || health.contains(SECRET_KEY), "no credentials in the health details: " + health);
            }
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), stats.toString());
            for (String route : List.of("POST /leases", "PUT /leases/", "DELETE /leases/")) {
                assertTrue(stats.forwarded().stream().anyMatch(line -> line.startsWith(route)), route + " signed and verified: " + stats);
            }
            assertEquals(java.util.Set.of(CALLER), java.util.Set.copyOf(stats.callerOfKey().values()));
            assertFalse(output.getAll().contains(SECRET_KEY), "the secret key in a log line");
        }
    }

    @Test
    void aSignatureTheApiRefusesStopsStartUpNamingThePrincipalsSetting(CapturedOutput output) {
        System.setProperty("aws.accessKeyId", "AKIAUNKNOWNTOTHEAPI1");
        try (LeaseApi api = LeaseApi.start(4);
             AwsStandIns standIns = AwsStandIns.start(new AwsStandIns.Options(api.baseUri(), LeaseApi.SECRET)
                     .key(KEY_ID, SECRET_KEY, CALLER))) {
            assertThrows(Exception.class, () -> signed(standIns).run());
            StartupFailureTest.assertReport(output,
                    "The lease API at " + standIns.proxy() + " refused this application's AWS identity (snowid.lease.auth=aws_iam): HTTP 403",
                    "Run as a role the function lists in SNOWID_LEASE_PRINCIPALS (the template's LeasePrincipals");
        }
    }

    @Test
    void withoutTheAwsSdkStartUpFailsNamingTheArtifacts() throws Exception {
        String classPath = Arrays.stream(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"))
                        .split(java.io.File.pathSeparator))
                .filter(entry -> !entry.contains("software" + java.io.File.separator + "amazon" + java.io.File.separator + "awssdk"))
                .collect(Collectors.joining(java.io.File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, "dev.snowid.spring.tests.app.TestApp", "--server.port=0", "--snowid.lease.url=http://127.0.0.1:9",
                "--snowid.lease.auth=aws_iam", "--snowid.lease.region=" + AwsStandIns.REGION));
        Path log = dir.resolve("app.log");
        Process app = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!app.waitFor(120, TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor();
        }
        String said = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(1, app.exitValue(), said);
        assertTrue(said.contains("APPLICATION FAILED TO START"), said);
        assertTrue(said.contains("snowid cannot sign lease requests (snowid.lease.auth=aws_iam): signing lease requests with IAM"
                + " needs the AWS SDK v2 on the class path"), said);
        assertTrue(said.contains("Add the Maven artifacts software.amazon.awssdk:http-auth-aws and software.amazon.awssdk:auth"), said);
    }

    private static org.springframework.boot.builder.SpringApplicationBuilder signed(AwsStandIns standIns) {
        return Apps.builder(standIns.proxy().toString(), null, "snowid.lease.auth=aws_iam", "snowid.lease.region=" + AwsStandIns.REGION);
    }
}
