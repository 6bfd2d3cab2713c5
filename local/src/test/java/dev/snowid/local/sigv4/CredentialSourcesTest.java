package dev.snowid.local.sigv4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.MotoServer;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each source of the AWS SDK's default credentials chain, against a stand-in of its real
 * endpoint: a workload JVM whose environment names only that source leases through the
 * verifying proxy (botocore recomputes every signature) and uses every lease route. The proxy
 * reports which credentials signed, so a request signed with anything but that source's would
 * show.
 */
@ExtendWith(DynamoDbEngine.class)
public class CredentialSourcesTest {

    static final String UPSTREAM_SECRET = "sigv4-upstream-secret-3a9e0c7b5d1f48e2b6a4c0d8e2f7193b5c7a9e1d3f5b7092";
    private static final Duration RUN = Duration.ofMillis(4_000); // crosses a renewal of the 5 s lease
    private static final Pattern RESULT = Pattern.compile(
            "RESULT ids=(\\d+) renewals=(\\d+) renewalFailures=(\\d+) lost=(\\d+) slotMapHeld=(\\d+)");

    @TempDir
    Path home;

    @Test
    void environmentVariables(TestTable table) {
        String arn = "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":user/env-workload";
        StandInStats stats = lease(table, options -> options.key("AKIAENVWORKLOAD00001", "env-secret-key/+=", arn),
                standIns -> Map.of("AWS_ACCESS_KEY_ID", "AKIAENVWORKLOAD00001", "AWS_SECRET_ACCESS_KEY", "env-secret-key/+="));
        assertEquals(Map.of("AKIAENVWORKLOAD00001", arn), stats.callerOfKey());
    }

    @Test
    void profileFile(TestTable table) throws IOException {
        Path credentials = home.resolve("shared-credentials");
        Files.writeString(credentials, "[default]\naws_access_key_id = AKIANOTTHISONE000000\naws_secret_access_key = wrong\n\n"
                + "[snowid-workload]\naws_access_key_id = AKIAPROFILEWORKLOAD1\naws_secret_access_key = profile-secret-key\n");
        Path config = home.resolve("config");
        Files.writeString(config, "[profile snowid-workload]\nregion = eu-west-1\n");
        String arn = "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":user/profile-workload";
        StandInStats stats = lease(table, options -> options.key("AKIAPROFILEWORKLOAD1", "profile-secret-key", arn),
                standIns -> Map.of("AWS_SHARED_CREDENTIALS_FILE", credentials.toString(), "AWS_CONFIG_FILE", config.toString(),
                        "AWS_PROFILE", "snowid-workload"));
        assertEquals(Map.of("AKIAPROFILEWORKLOAD1", arn), stats.callerOfKey());
    }

    @Test
    void ecsContainerEndpoint(TestTable table) {
        StandInStats stats = lease(table, options -> options.containerToken("container-auth-token"),
                standIns -> Map.of("AWS_CONTAINER_CREDENTIALS_FULL_URI", standIns.containerCredentials().toString(),
                        "AWS_CONTAINER_AUTHORIZATION_TOKEN", "container-auth-token"));
        assertTrue(stats.issuedBy("container") >= 1, stats.toString());
        assertTrue(stats.callerOfKey().values().stream().allMatch(arn -> arn.contains(":assumed-role/snowid-ecs-task/")), stats.toString());
    }

    @Test
    void ec2InstanceMetadataV2(TestTable table) {
        StandInStats stats = lease(table, Function.identity(),
                standIns -> Map.of("AWS_EC2_METADATA_SERVICE_ENDPOINT", standIns.instanceMetadata().toString(),
                        "AWS_EC2_METADATA_DISABLED", "false"));
        assertTrue(stats.issuedBy("imds") >= 1, stats.toString());
        assertTrue(stats.imdsTokens() >= 1, "the SDK took an IMDSv2 session token: " + stats);
        assertEquals(0, stats.imdsRefusedWithoutToken(), "and never asked without one: " + stats);
        assertTrue(stats.callerOfKey().values().stream().allMatch(arn -> arn.contains(":assumed-role/snowid-ec2-role/")), stats.toString());
    }

    @Test
    void eksWebIdentityWithStsOnMoto(TestTable table) throws IOException {
        Path token = home.resolve("eks-token");
        Files.writeString(token, "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6c25vd2lkOndvcmtsb2FkIn0.c2lnbmF0dXJl");
        try (MotoServer moto = MotoServer.start()) {
            StandInStats stats = lease(table, options -> options.moto(moto.endpoint()),
                    standIns -> Map.of("AWS_WEB_IDENTITY_TOKEN_FILE", token.toString(),
                            "AWS_ROLE_ARN", "arn:aws:iam::" + AwsStandIns.ACCOUNT + ":role/snowid-workload",
                            "AWS_ROLE_SESSION_NAME", "irsa-pod", "AWS_ENDPOINT_URL_STS", moto.endpoint().toString(),
                            "AWS_REGION", AwsStandIns.REGION));
            // The slot-map read has its own chain, so it may have traded the token once more: the same role.
            assertEquals(Set.of("arn:aws:sts::" + AwsStandIns.ACCOUNT + ":assumed-role/snowid-workload/irsa-pod"),
                    Set.copyOf(stats.callerOfKey().values()), stats.toString());
        }
    }

    /** Runs the workload through the proxy, checks it used every route with no refusal, and returns what the proxy saw. */
    private StandInStats lease(TestTable table, Function<AwsStandIns.Options, AwsStandIns.Options> credentials,
                               Function<AwsStandIns, Map<String, String>> environment) {
        try (LocalRunner runner = LocalRunner.start(runnerEnvironment(table));
             AwsStandIns standIns = AwsStandIns.start(credentials.apply(new AwsStandIns.Options(runner.baseUri(), UPSTREAM_SECRET)))) {
            String output = WorkloadJvm.run(standIns.proxy().toString(), RUN, home, environment.apply(standIns));
            Matcher result = RESULT.matcher(output);
            assertTrue(result.find(), "the workload's output: " + output);
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), "no request failed verification; workload output: " + output);
            assertTrue(Long.parseLong(result.group(1)) > 0, output);
            assertTrue(Long.parseLong(result.group(2)) >= 1, "it renewed: " + output);
            assertEquals("0", result.group(3), output);
            assertEquals("0", result.group(4), output);
            assertEquals("1", result.group(5), "the slot map showed its lease: " + output);
            for (String route : List.of("POST /leases", "PUT /leases/", "GET /leases", "DELETE /leases/")) {
                assertTrue(stats.forwarded().stream().anyMatch(line -> line.startsWith(route)), route + " was signed and verified: " + stats);
            }
            assertEquals(stats.forwarded().size(), stats.verified(), stats.toString());
            return stats;
        }
    }

    public static Map<String, String> runnerEnvironment(TestTable table) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, UPSTREAM_SECRET);
        env.put(FunctionSettings.LEASE_MILLIS, "5000");
        env.put(FunctionSettings.MAX_CLOCK_SKEW_MILLIS, "250");
        env.put(FunctionSettings.DATACENTERS, "3");
        env.put(FunctionSettings.MACHINES, "0-7");
        return env;
    }
}
