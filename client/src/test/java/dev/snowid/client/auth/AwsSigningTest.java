package dev.snowid.client.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.client.SnowidClient;
import java.io.File;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The IAM option's own rules: the region from the API's host name or given, one of secret and
 * signing, and an application without the AWS SDK: bearer mode works without it, IAM mode fails
 * at build() naming the Maven artifacts. (Botocore checks the signatures themselves, in the
 * lambda module's SignaturesUnderBotocoreTest, in front of the real local runner.)
 */
class AwsSigningTest {

    @TempDir
    Path folder;

    @Test
    void theRegionComesFromAnApiGatewayHostName() {
        assertEquals(Optional.of("eu-west-1"), AwsSigning.regionOf("abc123def4.execute-api.eu-west-1.amazonaws.com"));
        assertEquals(Optional.of("cn-north-1"), AwsSigning.regionOf("abc123.execute-api.cn-north-1.amazonaws.com.cn"));
        assertEquals(Optional.of("us-gov-west-1"), AwsSigning.regionOf("ABC123.Execute-Api.us-gov-west-1.amazonaws.com"));
        assertEquals(Optional.empty(), AwsSigning.regionOf("ids.example.com"));
        assertEquals(Optional.empty(), AwsSigning.regionOf("abc.execute-api.eu-west-1.amazonaws.com.evil.example"));
    }

    @Test
    void aCustomDomainNeedsTheRegionGivenAndTheMessageSaysHow() throws Exception {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> AwsSigning.defaultCredentials().authorizerFor(new URL("https://ids.example.com")));
        assertTrue(refused.getMessage().contains("AwsSigning.defaultCredentials().region(\"eu-west-1\")"), refused.getMessage());
        assertTrue(AwsSigning.defaultCredentials().region("eu-west-1").authorizerFor(new URL("https://ids.example.com")).describe()
                .contains("eu-west-1"));
        for (String bad : Arrays.asList("", "eu west 1", "EU-WEST-1", "europe", null)) {
            assertThrows(IllegalArgumentException.class, () -> AwsSigning.defaultCredentials().region(bad), String.valueOf(bad));
        }
    }

    @Test
    void secretAndSigningTogetherAreRefusedAndNeitherIsNamed() {
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class, () -> SnowidClient.builder()
                .leaseUrl("https://abc123.execute-api.eu-west-1.amazonaws.com").secret("s").awsIam().build());
        assertTrue(both.getMessage().contains("choose one"), both.getMessage());
        IllegalArgumentException neither = assertThrows(IllegalArgumentException.class, () -> SnowidClient.builder()
                .leaseUrl("https://abc123.execute-api.eu-west-1.amazonaws.com").build());
        assertTrue(neither.getMessage().contains("awsIam()") && neither.getMessage().contains("secret"), neither.getMessage());
    }

    @Test
    void theSignatureIsTheSdksForExecuteApiWithTheSessionToken() throws Exception {
        SigV4Signer signer = new SigV4Signer(StaticCredentialsProvider.create(AwsSessionCredentials.create("ASIAEXAMPLE", "secret", "token")),
                "eu-west-1", Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
        Map<String, String> headers = signer.headers("POST", new URL("https://abc123.execute-api.eu-west-1.amazonaws.com/leases"),
                "{}".getBytes(StandardCharsets.UTF_8));
        assertTrue(headers.get("Authorization").startsWith(
                "AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20261201/eu-west-1/execute-api/aws4_request, SignedHeaders="),
                headers.toString());
        assertEquals("20261201T100000Z", headers.get("X-Amz-Date"));
        assertEquals("token", headers.get("X-Amz-Security-Token"));
        assertFalse(headers.containsKey("Host"), "the HTTP client sends Host itself");
    }

    @Test
    void webIdentityWithoutStsFailsAtBuildNamingIt() throws Exception {
        // The client's test class path has the signer and the chain, not sts (as an application that forgot it).
        String text = runProbe(classPath(false), Collections.singletonMap("AWS_WEB_IDENTITY_TOKEN_FILE", folder.resolve("token").toString()));
        assertTrue(text.contains("no SDK: false"), text);
        assertTrue(text.contains("iam: java.lang.IllegalStateException: AWS_WEB_IDENTITY_TOKEN_FILE is set (web identity, e.g. EKS IRSA), "
                + "but the SDK needs the Maven artifact software.amazon.awssdk:sts on the class path"), text);
    }

    @Test
    void withoutTheSdkBearerModeWorksAndIamModeFailsAtBuildNamingTheArtifacts() throws Exception {
        String text = runProbe(classPath(true), Collections.emptyMap());
        assertTrue(text.contains("no SDK: true"), text);
        assertTrue(text.contains("bearer: ") && text.contains("POST /leases at http://127.0.0.1:") && text.contains("Connection refused"),
                "bearer mode reached the network: " + text);
        assertTrue(text.contains("iam: java.lang.IllegalStateException: signing lease requests with IAM needs the AWS SDK v2 on the "
                + "class path: add the Maven artifacts software.amazon.awssdk:http-auth-aws and software.amazon.awssdk:auth"), text);
    }

    private static String classPath(boolean withoutSdk) {
        return Arrays.stream(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")).split(File.pathSeparator))
                .filter(entry -> !withoutSdk || !entry.replace('\\', '/').contains("/software/amazon/"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /** {@link NoSdkApp} in a JVM of its own, with no AWS setting of this one's but those given. */
    private String runProbe(String classPath, Map<String, String> environment) throws Exception {
        List<String> command = new ArrayList<>(Arrays.asList(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, NoSdkApp.class.getName()));
        Path output = folder.resolve("out-" + System.nanoTime() + ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().keySet().removeIf(name -> name.startsWith("AWS_"));
        builder.environment().putAll(environment);
        Process process = builder.start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the probe JVM ended");
        String text = new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), text);
        return text;
    }
}
