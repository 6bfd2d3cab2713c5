package dev.snowid.infra;

import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.protocol.json.JsonReader;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.protocol.json.MalformedJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.localstack.LocalStackContainer;
import org.testcontainers.containers.localstack.LocalStackContainer.Service;
import org.testcontainers.utility.DockerImageName;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.internal.waiters.ResponseOrException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksResponse;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Deploys the template's table and function to LocalStack and calls the function through its
 * alias with API Gateway (payload 2.0) events. LocalStack's community edition has no HTTP API
 * (API Gateway v2), so the API, its permission and the outputs that name it are left out; the
 * Rules are evaluated by {@link ConcurrencyRulesTest} instead.
 *
 * <p>Needs a Docker engine. Where none runs, this one test reports that it did not run, and
 * why, and is counted as skipped: the template checks do not need an engine and run anyway.
 */
class LocalStackDeployTest {

    /** Pinned, and overridable for a mirror: SNOWID_LOCALSTACK_IMAGE=registry/localstack:tag. */
    private static final String IMAGE = System.getenv().getOrDefault("SNOWID_LOCALSTACK_IMAGE", "localstack/localstack:4.4");
    private static final Set<String> DEPLOYED = Set.of("LeaseTable", "FunctionLogGroup", "FunctionRole", "SnowidFunction");
    private static final String SECRET = "local-test-secret-" + UUID.randomUUID();

    @Test
    void tableAndFunctionDeployAndIssueIdsFromALeasedSlot() throws Exception {
        requireDockerEngine();
        Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
        try (LocalStackContainer localstack = new LocalStackContainer(DockerImageName.parse(IMAGE)
                .asCompatibleSubstituteFor("localstack/localstack"))
                .withServices(Service.CLOUDFORMATION, Service.S3, Service.LAMBDA, Service.DYNAMODB,
                        Service.IAM, Service.STS, Service.CLOUDWATCHLOGS)) {
            localstack.start();
            var credentials = StaticCredentialsProvider.create(
                    AwsBasicCredentials.create(localstack.getAccessKey(), localstack.getSecretKey()));
            Region region = Region.of(localstack.getRegion());
            var http = UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)).build();
            try (S3Client s3 = S3Client.builder().endpointOverride(localstack.getEndpoint()).region(region)
                            .credentialsProvider(credentials).httpClient(http).forcePathStyle(true).build();
                    CloudFormationClient cloudFormation = CloudFormationClient.builder()
                            .endpointOverride(localstack.getEndpoint()).region(region)
                            .credentialsProvider(credentials).httpClient(http).build();
                    LambdaClient lambda = LambdaClient.builder().endpointOverride(localstack.getEndpoint())
                            .region(region).credentialsProvider(credentials).httpClient(http).build();
                    DynamoDbClient dynamoDb = DynamoDbClient.builder().endpointOverride(localstack.getEndpoint())
                            .region(region).credentialsProvider(credentials).httpClient(http).build()) {

                s3.createBucket(b -> b.bucket("snowid-artifacts"));
                s3.putObject(b -> b.bucket("snowid-artifacts").key("function.jar"), RequestBody.fromFile(jar));

                String stack = "snowid-test";
                String secretHash = sha256(SECRET);
                cloudFormation.createStack(b -> b.stackName(stack)
                        .templateBody(deployableTemplate("s3://snowid-artifacts/function.jar"))
                        .capabilities(Capability.CAPABILITY_IAM, Capability.CAPABILITY_AUTO_EXPAND)
                        .parameters(parameter("Datacenters", "4-7"), parameter("AgentSlots", "32"),
                                parameter("ReservedConcurrency", "8"), parameter("LeaseAuth", "BEARER"),
                                parameter("LeaseSecretSha256", secretHash)));
                ResponseOrException<DescribeStacksResponse> created = cloudFormation.waiter()
                        .waitUntilStackCreateComplete(b -> b.stackName(stack),
                                waiter -> waiter.waitTimeout(Duration.ofMinutes(5)))
                        .matched();
                assertTrue(created.response().isPresent(), "stack not created: " + created.exception());

                String table = stack + "-leases";
                String function = cloudFormation.describeStackResource(b -> b.stackName(stack)
                        .logicalResourceId("SnowidFunction")).stackResourceDetail().physicalResourceId();

                JsonValue health = invoke(lambda, function, "GET", "/health", "", null);
                assertEquals("200", health.field("statusCode").flatMap(JsonValue::number).orElse(null), health.toString());

                JsonValue ids = invoke(lambda, function, "GET", "/ids", "count=3", null);
                assertEquals("200", ids.field("statusCode").flatMap(JsonValue::number).orElse(null), ids.toString());
                String body = ids.field("body").flatMap(JsonValue::string).orElseThrow();
                assertEquals(3, json(body).field("ids").flatMap(JsonValue::items).orElseThrow().size(), body);

                JsonValue lease = invoke(lambda, function, "POST", "/leases", "", "Bearer " + SECRET);
                assertEquals("201", lease.field("statusCode").flatMap(JsonValue::number).orElse(null), lease.toString());

                // The function's own slot and the agent's: both in the table, in the pool 4-7.
                List<Map<String, AttributeValue>> items = dynamoDb.scan(b -> b.tableName(table)).items();
                assertEquals(2, items.size(), items.toString());
                for (Map<String, AttributeValue> item : items) {
                    int slot = Integer.parseInt(item.get(LeaseTableSchema.SLOT).n());
                    assertTrue(slot / 32 >= 4 && slot / 32 <= 7, "slot " + slot + " outside datacenters 4-7");
                    assertTrue(item.containsKey(LeaseTableSchema.TTL) && item.containsKey(LeaseTableSchema.EXPIRES_AT)
                            && item.containsKey(LeaseTableSchema.FENCE), item.toString());
                }
            }
        }
    }

    /**
     * Aborts (reported as skipped, with the reason) when no Docker engine answers, and says so on
     * stderr too. Bounded in time: a missing engine must not hang the build.
     */
    private static void requireDockerEngine() {
        boolean available;
        String why;
        try {
            available = CompletableFuture.supplyAsync(() -> DockerClientFactory.instance().isDockerAvailable())
                    .get(30, TimeUnit.SECONDS);
            why = "Testcontainers found no Docker engine (the docker CLI may exist, but no daemon answers)";
        } catch (java.util.concurrent.TimeoutException e) {
            available = false;
            why = "no Docker engine answered within 30 s";
        } catch (Exception e) {
            available = false;
            why = "looking for a Docker engine failed: " + e;
        }
        if (!available) {
            String message = "LocalStackDeployTest DID NOT RUN: " + why + ". It deploys the template's table and "
                    + "function to LocalStack; start a Docker engine (or set DOCKER_HOST) to run it. "
                    + "The template checks (TemplateMatchesCodeTest, ConcurrencyRulesTest, ...) ran without it.";
            System.err.println(message);
            Assumptions.abort(message);
        }
    }

    /** The template with only what LocalStack's community edition deploys, the jar in S3. */
    private static String deployableTemplate(String codeUri) {
        Template template = Template.load().copy();
        template.resources().keySet().retainAll(DEPLOYED);
        template.root().remove("Outputs");
        template.root().remove("Rules");
        template.properties("SnowidFunction").put("CodeUri", codeUri);
        map(template.resource("SnowidFunction")).remove("Metadata");
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(template.root()); // long-form intrinsics: plain YAML
    }

    private static JsonValue invoke(LambdaClient lambda, String function, String method, String path, String query,
            String authorization) {
        String event = MotoDeployTest.event(method, path, query, authorization);
        InvokeResponse response = lambda.invoke(b -> b.functionName(function).qualifier("live")
                .payload(SdkBytes.fromUtf8String(event)));
        assertEquals(null, response.functionError(), response.payload().asUtf8String());
        return json(response.payload().asUtf8String());
    }

    /** The function's answers, read with the function's own JSON reader. */
    private static JsonValue json(String text) {
        try {
            return new JsonReader(new JsonReader.Limits(64, 16 << 20, 1_000, 16 << 20)).read(text.getBytes(StandardCharsets.UTF_8));
        } catch (MalformedJson e) {
            throw new AssertionError("not JSON: the text " + e.what() + ": " + text);
        }
    }

    private static Parameter parameter(String key, String value) {
        return Parameter.builder().parameterKey(key).parameterValue(value).build();
    }

    private static String sha256(String secret) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
    }
}
