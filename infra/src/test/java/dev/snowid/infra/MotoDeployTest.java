package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.lambda.FunctionSettings;
import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.engine.DynamoDbEngine;
import dev.snowid.lambda.engine.OnMoto;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonNodeParser;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.apigatewayv2.ApiGatewayV2Client;
import software.amazon.awssdk.services.apigatewayv2.model.Integration;
import software.amazon.awssdk.services.apigatewayv2.model.ProtocolType;
import software.amazon.awssdk.services.apigatewayv2.model.Route;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.StackResource;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.FunctionConfiguration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Deploys {@code infra/template.yaml} without Docker: the SAM transform runs locally (AWS's own
 * translator, {@link SamTranslator}), the result is created as a stack on moto's CloudFormation,
 * and the test checks what moto built against the template and the code: the table's key and
 * billing, the function's runtime, handler, memory, timeout, environment, reserved concurrency
 * and code (our jar, byte for byte), the role's exact actions on the table's ARN. Then the
 * function's handler, built in this JVM from the deployed function's own environment, issues IDs
 * and leases from the deployed table.
 *
 * <p>moto's CloudFormation builds neither the alias nor the HTTP API (and so not the permission
 * that names the alias); the test creates those through moto's Lambda and API Gateway APIs from
 * the translated template's own properties. What moto keeps of none of this is listed in
 * docs/deploy.md ("What the deploy test covers").
 */
@OnMoto
class MotoDeployTest {

    private static final Region REGION = Region.US_EAST_1;
    private static final String STACK = "snowid-moto";
    private static final String SECRET = "moto-deploy-secret-" + UUID.randomUUID();
    private static final Map<String, String> PARAMETERS = Map.of("Datacenters", "8-11", "AgentSlots", "48",
            "ReservedConcurrency", "40", "LeaseMillis", "30000", "LeaseAuth", "BEARER",
            "LeaseSecretSha256", sha256(SECRET), "LogRetentionDays", "14");

    private enum Coverage { CLOUDFORMATION, SERVICE_API }

    /** How each resource type of the translated template gets built on moto; a new type must be added here. */
    private static final Map<String, Coverage> COVERAGE = Map.of(
            "AWS::DynamoDB::Table", Coverage.CLOUDFORMATION,
            "AWS::Logs::LogGroup", Coverage.CLOUDFORMATION,
            "AWS::IAM::Role", Coverage.CLOUDFORMATION,
            "AWS::Lambda::Function", Coverage.CLOUDFORMATION,
            "AWS::Lambda::Version", Coverage.CLOUDFORMATION,
            // Not in moto's CloudFormation; the permission names the alias, so it follows it.
            "AWS::Lambda::Alias", Coverage.SERVICE_API,
            "AWS::ApiGatewayV2::Api", Coverage.SERVICE_API,
            "AWS::ApiGatewayV2::Stage", Coverage.SERVICE_API,
            "AWS::Lambda::Permission", Coverage.SERVICE_API);
    /** The order the test creates them in: each may name the ones before it. */
    private static final List<String> SERVICE_API_ORDER = List.of("AWS::Lambda::Alias", "AWS::ApiGatewayV2::Api",
            "AWS::ApiGatewayV2::Stage", "AWS::Lambda::Permission");

    private static Deployment deployment;

    private final Deployment deployed;

    MotoDeployTest(DynamoDbEngine.Running moto) throws Exception {
        synchronized (MotoDeployTest.class) {
            if (deployment == null) {
                deployment = Deployment.create(moto);
            }
            deployed = deployment;
        }
    }

    @Test
    void theTableIsKeyedBySlotBilledOnDemandAndProtected() {
        TableDescription table = deployed.dynamoDb.describeTable(b -> b.tableName(deployed.output("TableName"))).table();

        assertEquals(STACK + "-leases", table.tableName());
        assertEquals(1, table.keySchema().size(), table.keySchema().toString());
        assertEquals(LeaseTableSchema.SLOT, table.keySchema().get(0).attributeName());
        assertEquals("HASH", table.keySchema().get(0).keyTypeAsString());
        assertEquals("N", table.attributeDefinitions().stream().filter(a -> a.attributeName().equals(LeaseTableSchema.SLOT))
                .findFirst().orElseThrow().attributeTypeAsString());
        assertEquals("PAY_PER_REQUEST", table.billingModeSummary().billingModeAsString());
        assertTrue(table.deletionProtectionEnabled(), "deletion protection");
        // moto's CloudFormation drops TimeToLiveSpecification: the translated template must still carry it.
        Map<String, Object> ttl = map(at(deployed.translated.properties("LeaseTable"), "TimeToLiveSpecification").orElseThrow());
        assertEquals(Map.of("AttributeName", LeaseTableSchema.TTL, "Enabled", true), ttl);
    }

    @Test
    void theFunctionRunsOurJarWithTheTemplatesSettings() throws Exception {
        var function = deployed.lambda.getFunctionConfiguration(b -> b.functionName(deployed.functionName()));

        assertEquals("java21", function.runtimeAsString());
        assertEquals(CodeNames.HANDLER_CLASS + "::" + CodeNames.HANDLER_METHOD, function.handler());
        assertEquals(1024, function.memorySize());
        assertEquals(15, function.timeout());
        assertEquals(deployed.value("FunctionRole.Arn"), function.role());
        byte[] jar = Files.readAllBytes(deployed.jar);
        assertEquals(jar.length, function.codeSize(), "the deployed code is the function jar");
        assertEquals(Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(jar)), function.codeSha256());

        Map<String, String> expected = new TreeMap<>();
        map(at(deployed.translated.properties("SnowidFunction"), "Environment", "Variables").orElseThrow())
                .forEach((name, value) -> expected.put(name, deployed.intrinsics.string(value)));
        assertEquals(expected, new TreeMap<>(function.environment().variables()));
        assertEquals(deployed.output("TableName"), expected.get(FunctionSettings.TABLE));
        assertEquals("8-11", expected.get(FunctionSettings.DATACENTERS));
        assertEquals(sha256(SECRET), expected.get(FunctionSettings.LEASE_SECRET_SHA256));

        assertEquals(40, deployed.lambda.getFunctionConcurrency(b -> b.functionName(deployed.functionName()))
                .reservedConcurrentExecutions());
    }

    @Test
    void theRoleAllowsExactlyTheStoresActionsOnThisTableAndLogStreamsOfItsLogGroup() {
        String role = deployed.physicalId("FunctionRole");
        String tableArn = deployed.dynamoDb.describeTable(b -> b.tableName(deployed.output("TableName"))).table().tableArn();

        Map<String, Object> trust = policyDocument(deployed.iam.getRole(b -> b.roleName(role)).role().assumeRolePolicyDocument());
        assertEquals(Map.of("Service", "lambda.amazonaws.com"), map(list(trust.get("Statement")).get(0)).get("Principal"));
        assertTrue(deployed.iam.listAttachedRolePolicies(b -> b.roleName(role)).attachedPolicies().isEmpty(),
                "no managed policies (SAM's default role would attach AWSLambdaBasicExecutionRole)");

        Map<String, Map<Set<Object>, Set<Object>>> grants = new TreeMap<>();
        for (String policy : deployed.iam.listRolePolicies(b -> b.roleName(role)).policyNames()) {
            Map<String, Object> document = policyDocument(deployed.iam.getRolePolicy(b -> b.roleName(role).policyName(policy))
                    .policyDocument());
            Map<Set<Object>, Set<Object>> actionsOnResources = new LinkedHashMap<>();
            for (Object statement : list(document.get("Statement"))) {
                assertEquals("Allow", map(statement).get("Effect"), document.toString());
                actionsOnResources.put(Set.copyOf(Template.oneOrMany(map(statement).get("Action"))),
                        Set.copyOf(Template.oneOrMany(map(statement).get("Resource"))));
            }
            grants.put(policy, actionsOnResources);
        }
        String logStreams = "arn:aws:logs:" + REGION.id() + ":" + deployed.account() + ":log-group:/snowid/" + STACK
                + "/function:log-stream:*";
        assertEquals(Map.of(
                "lease-table", Map.of(Set.copyOf(LeaseTableSchema.ACTIONS_USED), Set.of(tableArn)),
                "function-logs", Map.of(TemplateChecks.LOG_ACTIONS, Set.of(logStreams))), grants);
    }

    @Test
    void theApiSendsEveryRouteToTheAliasOfThePublishedVersion() {
        String function = deployed.functionName();
        List<String> versions = deployed.lambda.listVersionsByFunction(b -> b.functionName(function)).versions().stream()
                .map(FunctionConfiguration::version).filter(v -> !v.equals("$LATEST")).toList();
        assertEquals(1, versions.size(), "AutoPublishAlias publishes one version: " + versions);
        String aliasArn = deployed.lambda.getAlias(b -> b.functionName(function).name("live")).aliasArn();
        assertEquals(versions.get(0), deployed.lambda.getAlias(b -> b.functionName(function).name("live")).functionVersion());

        String api = deployed.value("Api");
        String invokesAlias = "arn:aws:apigateway:" + REGION.id() + ":lambda:path/2015-03-31/functions/" + aliasArn + "/invocations";
        Map<String, Integration> integrations = deployed.apiGateway.getIntegrations(b -> b.apiId(api)).items().stream()
                .collect(Collectors.toMap(Integration::integrationId, i -> i));
        Set<String> routes = new TreeSet<>();
        for (Route route : deployed.apiGateway.getRoutes(b -> b.apiId(api)).items()) {
            routes.add(route.routeKey());
            Integration integration = integrations.get(route.target().substring("integrations/".length()));
            assertEquals(invokesAlias, integration.integrationUri(), route.routeKey());
            assertEquals("2.0", integration.payloadFormatVersion(), route.routeKey());
            assertEquals("AWS_PROXY", integration.integrationTypeAsString().toUpperCase(), route.routeKey());
        }
        assertEquals(new TreeSet<>(TemplateChecks.ROUTES), routes);

        JsonNode policy = json(deployed.lambda.getPolicy(b -> b.functionName(function).qualifier("live")).policy());
        JsonNode statement = policy.field("Statement").orElseThrow().asArray().get(0);
        assertEquals("apigateway.amazonaws.com", statement.field("Principal").orElseThrow().field("Service").orElseThrow().text());
        assertEquals("arn:aws:execute-api:" + REGION.id() + ":" + deployed.account() + ":" + api + "/*",
                statement.field("Condition").orElseThrow().field("ArnLike").orElseThrow().field("AWS:SourceArn").orElseThrow().text());
        assertEquals("https://" + api + ".execute-api." + REGION.id() + ".amazonaws.com", deployed.output("LeaseUrl"));
    }

    @Test
    void theFunctionIssuesIdsAndLeasesFromItsPoolOnTheDeployedTable() {
        Map<String, String> environment = new HashMap<>(deployed.lambda.getFunctionConfiguration(b -> b.functionName(
                deployed.functionName())).environment().variables());
        // The one setting a run outside Lambda adds: where DynamoDB is.
        environment.put(FunctionSettings.DYNAMODB_ENDPOINT, deployed.endpoint);
        try (SnowidHandler handler = new SnowidHandler(FunctionSettings.from(environment))) {
            JsonNode ids = body(invoke(handler, "GET", "/ids", "count=3", null), 200);
            assertEquals(3, ids.field("ids").orElseThrow().asArray().size(), ids.toString());
            for (JsonNode id : ids.field("ids").orElseThrow().asArray()) {
                SnowflakeId decoded = SnowflakeCodec.TWITTER.parse(id.text());
                assertTrue(decoded.datacenter() >= 8 && decoded.datacenter() <= 11, "datacenter of " + decoded);
            }
            JsonNode lease = body(invoke(handler, "POST", "/leases", "", "Bearer " + SECRET), 201);
            long datacenter = Long.parseLong(lease.field("datacenter").orElseThrow().asNumber());
            assertTrue(datacenter >= 8 && datacenter <= 11, lease.toString());

            List<Map<String, AttributeValue>> items = deployed.dynamoDb.scan(b -> b.tableName(deployed.output("TableName"))
                    .consistentRead(true)).items();
            assertEquals(2, items.size(), "the function's slot and the agent's: " + items);
            for (Map<String, AttributeValue> item : items) {
                int slot = Integer.parseInt(item.get(LeaseTableSchema.SLOT).n());
                assertTrue(slot / 32 >= 8 && slot / 32 <= 11, "slot " + slot + " outside datacenters 8-11");
                assertTrue(item.containsKey(LeaseTableSchema.OWNER) && item.containsKey(LeaseTableSchema.TTL), item.toString());
            }
        }
    }

    /** The stack on moto, with what the test built itself, and clients for every service involved. */
    private static final class Deployment {

        final String endpoint;
        final Path jar;
        final Template translated;
        final CloudFormationClient cloudFormation;
        final LambdaClient lambda;
        final IamClient iam;
        final DynamoDbClient dynamoDb;
        final ApiGatewayV2Client apiGateway;
        final Map<String, String> values = new HashMap<>();
        final Map<String, String> outputs = new HashMap<>();
        Intrinsics intrinsics;

        private Deployment(DynamoDbEngine.Running moto, Template translated, Path jar) {
            this.endpoint = moto.endpoint().toString();
            this.translated = translated;
            this.jar = jar;
            var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("moto", "moto"));
            SdkHttpClient http = UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)).build();
            this.cloudFormation = CloudFormationClient.builder().endpointOverride(moto.endpoint()).region(REGION)
                    .credentialsProvider(credentials).httpClient(http).build();
            this.lambda = LambdaClient.builder().endpointOverride(moto.endpoint()).region(REGION)
                    .credentialsProvider(credentials).httpClient(http).build();
            this.iam = IamClient.builder().endpointOverride(moto.endpoint()).region(REGION)
                    .credentialsProvider(credentials).httpClient(http).build();
            this.dynamoDb = moto.client();
            this.apiGateway = ApiGatewayV2Client.builder().endpointOverride(moto.endpoint()).region(REGION)
                    .credentialsProvider(credentials).httpClient(http).build();
        }

        static Deployment create(DynamoDbEngine.Running moto) throws Exception {
            Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
            String bucket = "snowid-artifacts";
            String codeUri = "s3://" + bucket + "/snowid-function.jar";
            Template translated = SamTranslator.translate(Template.location(), codeUri, REGION.id());
            Deployment deployment = new Deployment(moto, translated, jar);
            try (S3Client s3 = S3Client.builder().endpointOverride(moto.endpoint()).region(REGION).forcePathStyle(true)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("moto", "moto")))
                    .httpClient(UrlConnectionHttpClient.create()).build()) {
                s3.createBucket(b -> b.bucket(bucket));
                s3.putObject(b -> b.bucket(bucket).key("snowid-function.jar"), RequestBody.fromFile(jar));
            }
            deployment.deploy();
            return deployment;
        }

        private void deploy() {
            Map<String, List<String>> byCoverage = new HashMap<>();
            translated.resources().forEach((id, resource) -> {
                String type = (String) map(resource).get("Type");
                Coverage coverage = COVERAGE.get(type);
                if (coverage == null) {
                    throw new AssertionError("the translated template has a " + type + " (" + id + ") that the deploy test"
                            + " does not know: add it to MotoDeployTest.COVERAGE, and to docs/deploy.md");
                }
                byCoverage.computeIfAbsent(coverage.name(), c -> new ArrayList<>()).add(id);
            });
            List<String> createdByTest = byCoverage.getOrDefault(Coverage.SERVICE_API.name(), List.of());

            Template stack = translated.copy();
            stack.resources().keySet().removeAll(createdByTest);
            Map<String, Object> laterOutputs = new LinkedHashMap<>();
            map(stack.root().getOrDefault("Outputs", new LinkedHashMap<>())).entrySet().removeIf(output -> {
                boolean namesOne = createdByTest.stream().anyMatch(id -> output.getValue().toString().contains(id));
                if (namesOne) {
                    laterOutputs.put(output.getKey(), output.getValue());
                }
                return namesOne;
            });

            cloudFormation.createStack(b -> b.stackName(STACK).templateBody(yaml(stack.root()))
                    .capabilities(Capability.CAPABILITY_IAM, Capability.CAPABILITY_AUTO_EXPAND)
                    .parameters(PARAMETERS.entrySet().stream()
                            .map(p -> Parameter.builder().parameterKey(p.getKey()).parameterValue(p.getValue()).build())
                            .toList()));
            var described = cloudFormation.waiter().waitUntilStackCreateComplete(b -> b.stackName(STACK),
                    w -> w.waitTimeout(Duration.ofMinutes(2))).matched();
            assertTrue(described.response().isPresent(), "stack not created: " + described.exception());
            var created = described.response().get().stacks().get(0);
            assertEquals(StackStatus.CREATE_COMPLETE, created.stackStatus(), created.stackStatusReason());
            created.outputs().forEach(o -> outputs.put(o.outputKey(), o.outputValue()));

            collectValues();
            for (String type : SERVICE_API_ORDER) {
                for (String id : createdByTest) {
                    if (type.equals(map(translated.resource(id)).get("Type"))) {
                        createThroughServiceApi(id, type, intrinsics.resolve(translated.properties(id)));
                        collectIntrinsics();
                    }
                }
            }
            laterOutputs.forEach((key, output) -> outputs.put(key, intrinsics.string(map(output).get("Value"))));
        }

        /** What Ref and GetAtt stand for on this stack, as far as moto built it. */
        private void collectValues() {
            values.put("AWS::Region", REGION.id());
            values.put("AWS::Partition", "aws");
            values.put("AWS::URLSuffix", "amazonaws.com");
            values.put("AWS::StackName", STACK);
            translated.parameters().forEach((name, parameter) ->
                    values.put(name, String.valueOf(map(parameter).getOrDefault("Default", ""))));
            values.putAll(PARAMETERS);
            for (StackResource resource : cloudFormation.describeStackResources(b -> b.stackName(STACK)).stackResources()) {
                values.put(resource.logicalResourceId(), resource.physicalResourceId());
            }
            String function = values.get("SnowidFunction");
            String functionArn = lambda.getFunctionConfiguration(b -> b.functionName(function)).functionArn();
            values.put("SnowidFunction.Arn", functionArn);
            values.put("AWS::AccountId", functionArn.split(":")[4]);
            values.put("LeaseTable.Arn", dynamoDb.describeTable(b -> b.tableName(values.get("LeaseTable"))).table().tableArn());
            values.put("FunctionRole.Arn", iam.getRole(b -> b.roleName(values.get("FunctionRole"))).role().arn());
            for (String version : translated.resourcesOfType("AWS::Lambda::Version")) {
                List<String> published = lambda.listVersionsByFunction(b -> b.functionName(function)).versions().stream()
                        .map(FunctionConfiguration::version).filter(v -> !v.equals("$LATEST")).toList();
                values.put(version + ".Version", published.get(published.size() - 1));
            }
            collectIntrinsics();
        }

        private void collectIntrinsics() {
            Intrinsics withoutConditions = new Intrinsics(values, Map.of());
            Map<String, Boolean> conditions = new HashMap<>();
            map(translated.root().getOrDefault("Conditions", Map.of())).forEach((name, condition) ->
                    conditions.put(name, (Boolean) withoutConditions.resolve(condition)));
            intrinsics = new Intrinsics(values, conditions);
        }

        private void createThroughServiceApi(String id, String type, Object resolved) {
            Map<String, Object> properties = map(resolved);
            switch (type) {
                case "AWS::Lambda::Alias" -> values.put(id, lambda.createAlias(b -> b
                        .functionName((String) properties.get("FunctionName"))
                        .name((String) properties.get("Name"))
                        .functionVersion((String) properties.get("FunctionVersion"))).aliasArn());
                case "AWS::ApiGatewayV2::Api" -> {
                    String api = apiGateway.createApi(b -> b.name(STACK + "-" + id).protocolType(ProtocolType.HTTP)).apiId();
                    values.put(id, api);
                    // Only now can the body's integration URIs be resolved (they name the alias).
                    apiGateway.reimportApi(b -> b.apiId(api).body(yaml(properties.get("Body"))));
                }
                case "AWS::ApiGatewayV2::Stage" -> apiGateway.createStage(b -> b.apiId((String) properties.get("ApiId"))
                        .stageName((String) properties.get("StageName"))
                        .autoDeploy((Boolean) properties.getOrDefault("AutoDeploy", false)));
                case "AWS::Lambda::Permission" -> lambda.addPermission(b -> b.statementId(id)
                        .functionName((String) properties.get("FunctionName"))
                        .action((String) properties.get("Action"))
                        .principal((String) properties.get("Principal"))
                        .sourceArn((String) properties.get("SourceArn")));
                default -> throw new AssertionError("no way to create " + type);
            }
        }

        String output(String key) {
            String value = outputs.get(key);
            if (value == null) {
                throw new AssertionError("no output " + key + " (outputs: " + outputs + ")");
            }
            return value;
        }

        String value(String key) {
            return intrinsics.values().get(key);
        }

        String physicalId(String logicalId) {
            return values.get(logicalId);
        }

        String functionName() {
            return output("FunctionName");
        }

        String account() {
            return values.get("AWS::AccountId");
        }
    }

    private static String invoke(SnowidHandler handler, String method, String path, String query, String authorization) {
        String headers = authorization == null ? "{}" : "{\"authorization\":\"" + authorization + "\"}";
        String event = """
                {"version":"2.0","routeKey":"$default","rawPath":"%s","rawQueryString":"%s","headers":%s,
                 "requestContext":{"http":{"method":"%s","path":"%s","sourceIp":"127.0.0.1"},
                 "requestId":"%s","stage":"$default"},"isBase64Encoded":false}
                """.formatted(path, query, headers, method, path, UUID.randomUUID());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static JsonNode body(String response, int status) {
        JsonNode parsed = json(response);
        assertEquals(String.valueOf(status), parsed.field("statusCode").map(JsonNode::asNumber).orElse(null), response);
        return json(parsed.field("body").orElseThrow().text());
    }

    /**
     * An IAM policy document as IAM returns it (URL-encoded JSON). moto returns the trust policy
     * of a role that CloudFormation made as a Python dict's text instead (single quotes); YAML's
     * flow style reads both.
     */
    private static Map<String, Object> policyDocument(String returned) {
        return map(new Yaml().load(URLDecoder.decode(returned, StandardCharsets.UTF_8)));
    }

    private static JsonNode json(String text) {
        return JsonNodeParser.create().parse(text);
    }

    /** YAML for plain maps and lists (the template, the API's OpenAPI body): CloudFormation and API Gateway read it. */
    private static String yaml(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(value);
    }

    private static String sha256(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
