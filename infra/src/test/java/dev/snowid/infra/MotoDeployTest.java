package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.lambda.LeaseAuthorizerHandler;
import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.HttpApiEvent;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.LeaseMessage;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.OnMoto;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
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
import org.w3c.dom.Node;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonNodeParser;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.apigatewayv2.model.Integration;
import software.amazon.awssdk.services.apigatewayv2.model.Route;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.lambda.model.FunctionConfiguration;

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
 * that names the alias); {@link MotoStack} creates those through moto's Lambda and API Gateway
 * APIs from the translated template's own properties. What moto does not keep or build is
 * listed in docs/contributing.md ("Test engines").
 */
@OnMoto
class MotoDeployTest {

    private static final Region REGION = MotoStack.REGION;
    private static final String STACK = "snowid-moto";
    static final String SECRET = "moto-deploy-secret-" + UUID.randomUUID();
    static final String NAMESPACE = "snowid-moto-metrics";
    static final Map<String, String> PARAMETERS = Map.ofEntries(Map.entry("Datacenters", "8-11"),
            Map.entry("AgentSlots", "48"), Map.entry("ReservedConcurrency", "40"), Map.entry("LeaseMillis", "30000"),
            Map.entry("LeaseAuth", "BEARER"), Map.entry("LeaseSecretSha256", sha256(SECRET)), Map.entry("LogRetentionDays", "14"),
            Map.entry("ThrottlingRateLimit", "500"), Map.entry("ThrottlingBurstLimit", "64"), Map.entry("LeaseConcurrency", "8"),
            Map.entry("PublicThrottlingRateLimit", "300"), Map.entry("PublicThrottlingBurstLimit", "32"),
            Map.entry("AccessLogRetentionDays", "7"), Map.entry("MetricsNamespace", NAMESPACE), Map.entry("AuthorizerConcurrency", "2"));
    /** AWS's default concurrency of an account and region, and the part Lambda keeps unreserved (at least 100). */
    private static final int ACCOUNT_CONCURRENCY = 1_000;
    private static final int UNRESERVED_MINIMUM = 100;

    /** Each class's one deployment (this one's and MotoCdkDeployTest's), or why it failed. */
    private static final Map<Class<?>, Object> DEPLOYMENTS = new HashMap<>();

    final MotoStack deployed;

    /** One deployment for all the checks; a failed one fails each check with its cause, without trying again. */
    MotoDeployTest(DynamoDbEngine.Running moto) {
        synchronized (MotoDeployTest.class) {
            Object deployment = DEPLOYMENTS.computeIfAbsent(getClass(), c -> {
                try {
                    return deploy(moto);
                } catch (RuntimeException | AssertionError failed) {
                    return new IllegalStateException("the deployment to moto failed: " + failed, failed);
                }
            });
            if (deployment instanceof RuntimeException failed) {
                throw failed;
            }
            deployed = (MotoStack) deployment;
        }
    }

    /** The SAM template with {@link #PARAMETERS}, as {@code sam deploy} deploys it. */
    MotoStack deploy(DynamoDbEngine.Running moto) {
        return MotoStack.deploy(moto, STACK, PARAMETERS);
    }

    @Test
    void theTableIsKeyedBySlotBilledOnDemandAndProtected() {
        TableDescription table = deployed.dynamoDb.describeTable(b -> b.tableName(deployed.output("TableName"))).table();

        assertEquals(deployed.stack + "-leases", table.tableName());
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
        assertEquals("ids", expected.get(FunctionSettings.ROLE));
    }

    @Test
    void theLeaseFunctionIsTheSameJarInTheLeaseRoleWithItsOwnReservedConcurrency() throws Exception {
        var function = deployed.lambda.getFunctionConfiguration(b -> b.functionName(deployed.leaseFunctionName()));
        var ids = deployed.lambda.getFunctionConfiguration(b -> b.functionName(deployed.functionName()));
        assertNotEquals(ids.functionName(), function.functionName());
        assertEquals(ids.codeSha256(), function.codeSha256(), "one artifact");
        assertEquals(ids.handler(), function.handler());
        assertEquals(ids.role(), function.role());

        Map<String, String> expected = new TreeMap<>();
        map(at(deployed.translated.properties(TemplateChecks.LEASE_FUNCTION), "Environment", "Variables").orElseThrow())
                .forEach((name, value) -> expected.put(name, deployed.intrinsics.string(value)));
        assertEquals(expected, new TreeMap<>(function.environment().variables()));
        assertEquals("leases", expected.get(FunctionSettings.ROLE));
        // Everything else as the ids function has it: the same table, pool, split and secret.
        Map<String, String> idsVariables = new TreeMap<>(ids.environment().variables());
        idsVariables.remove(FunctionSettings.ROLE);
        expected.remove(FunctionSettings.ROLE);
        assertEquals(idsVariables, expected);

        assertEquals(8, deployed.lambda.getFunctionConcurrency(b -> b.functionName(deployed.leaseFunctionName()))
                .reservedConcurrentExecutions(), "LeaseConcurrency, reserved for the lease routes alone");
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
        String logStreams = "arn:aws:logs:" + REGION.id() + ":" + deployed.account() + ":log-group:/snowid/" + deployed.stack
                + "/function:log-stream:*";
        assertEquals(Map.of(
                "lease-table", Map.of(Set.copyOf(LeaseTableSchema.ACTIONS_USED), Set.of(tableArn)),
                "function-logs", Map.of(TemplateChecks.LOG_ACTIONS, Set.of(logStreams))), grants);
    }

    @Test
    void theApiSendsEachRouteToTheAliasOfItsFunctionsPublishedVersion() {
        String api = deployed.value("Api");
        String invokesIds = invokesAlias(deployed.functionName());
        String invokesLeases = invokesAlias(deployed.leaseFunctionName());
        Map<String, Integration> integrations = deployed.apiGateway.getIntegrations(b -> b.apiId(api)).items().stream()
                .collect(Collectors.toMap(Integration::integrationId, i -> i));
        Set<String> routes = new TreeSet<>();
        Map<String, String> reaches = new TreeMap<>();
        for (Route route : deployed.apiGateway.getRoutes(b -> b.apiId(api)).items()) {
            routes.add(route.routeKey());
            Integration integration = integrations.get(route.target().substring("integrations/".length()));
            reaches.put(route.routeKey(), integration.integrationUri().equals(invokesLeases) ? "leases"
                    : integration.integrationUri().equals(invokesIds) ? "ids" : integration.integrationUri());
            assertEquals("2.0", integration.payloadFormatVersion(), route.routeKey());
            assertEquals("AWS_PROXY", integration.integrationTypeAsString().toUpperCase(), route.routeKey());
        }
        assertEquals(new TreeSet<>(TemplateChecks.ROUTES), routes);
        assertEquals(Map.of("GET /ids", "ids", "POST /ids", "ids", "GET /ids/{id}", "ids", "GET /health", "ids", "X-AMAZON-APIGATEWAY-ANY-METHOD $default", "ids",
                "GET /leases", "leases", "POST /leases", "leases", "PUT /leases/{slot}", "leases", "DELETE /leases/{slot}", "leases"),
                reaches, "the lease routes reach the lease function only, every other route the ids function");

        for (String function : List.of(deployed.functionName(), deployed.leaseFunctionName())) {
            JsonNode policy = json(deployed.lambda.getPolicy(b -> b.functionName(function).qualifier("live")).policy());
            JsonNode statement = policy.field("Statement").orElseThrow().asArray().get(0);
            assertEquals("apigateway.amazonaws.com", statement.field("Principal").orElseThrow().field("Service").orElseThrow().text());
            assertEquals("arn:aws:execute-api:" + REGION.id() + ":" + deployed.account() + ":" + api + "/*",
                    statement.field("Condition").orElseThrow().field("ArnLike").orElseThrow().field("AWS:SourceArn").orElseThrow().text());
        }
        assertEquals("https://" + api + ".execute-api." + REGION.id() + ".amazonaws.com", deployed.output("LeaseUrl"));
    }

    @Test
    void inBearerModeEveryLeaseRouteIsBehindTheAuthorizerWhichAdmitsOnlyTheSecret() throws Exception {
        String api = deployed.value("Api");
        String authorizerFunction = deployed.output("LeaseAuthorizerFunctionName");
        // moto lists no authorizers (no GetAuthorizers): the routes name them.
        Set<String> authorizerIds = new TreeSet<>();
        deployed.apiGateway.getRoutes(b -> b.apiId(api)).items().stream().map(Route::authorizerId).filter(id -> id != null)
                .forEach(authorizerIds::add);
        assertEquals(1, authorizerIds.size(), "one authorizer for the lease routes: " + authorizerIds);
        var authorizer = deployed.apiGateway.getAuthorizer(b -> b.apiId(api).authorizerId(authorizerIds.iterator().next()));
        assertEquals("REQUEST", authorizer.authorizerTypeAsString());
        assertEquals(List.of("$request.header.Authorization"), authorizer.identitySource(), "a request without the header is refused unasked");
        assertEquals(300, authorizer.authorizerResultTtlInSeconds(), "answers cached by the header, as docs/deploy.md says");
        assertTrue(authorizer.enableSimpleResponses());
        assertEquals("2.0", authorizer.authorizerPayloadFormatVersion());
        assertEquals(invokesAlias(authorizerFunction), authorizer.authorizerUri());

        Map<String, String> authorization = new TreeMap<>();
        for (Route route : deployed.apiGateway.getRoutes(b -> b.apiId(api)).items()) {
            authorization.put(route.routeKey(), route.authorizationTypeAsString() == null ? "NONE"
                    : route.authorizationTypeAsString() + (authorizer.authorizerId().equals(route.authorizerId()) ? " (the authorizer)" : ""));
        }
        Map<String, String> expected = new TreeMap<>();
        for (String route : TemplateChecks.ROUTES) {
            expected.put(route, route.contains(" /leases") ? "CUSTOM (the authorizer)" : "NONE");
        }
        assertEquals(expected, authorization);

        var function = deployed.lambda.getFunctionConfiguration(b -> b.functionName(authorizerFunction));
        assertEquals(CodeNames.AUTHORIZER_HANDLER, function.handler());
        assertEquals(Map.of(FunctionSettings.LEASE_SECRET_SHA256, sha256(SECRET), FunctionSettings.LEASE_SECRET_NEXT_SHA256, ""),
                function.environment().variables(), "the secrets' hashes and nothing else");
        assertNotEquals(deployed.value("FunctionRole.Arn"), function.role(), "its own role, without the lease table");
        JsonNode permission = json(deployed.lambda.getPolicy(b -> b.functionName(authorizerFunction).qualifier("live")).policy())
                .field("Statement").orElseThrow().asArray().get(0);
        assertEquals("arn:aws:execute-api:" + REGION.id() + ":" + deployed.account() + ":" + api + "/authorizers/*",
                permission.field("Condition").orElseThrow().field("ArnLike").orElseThrow().field("AWS:SourceArn").orElseThrow().text());

        // The deployed authorizer's handler, built in this JVM from its deployed environment.
        LeaseAuthorizerHandler handler = new LeaseAuthorizerHandler(FunctionSettings.from(function.environment().variables()));
        assertEquals("{\"isAuthorized\":true}", authorize(handler, authorizerEvent("Bearer " + SECRET)));
        assertEquals("{\"isAuthorized\":false}", authorize(handler, authorizerEvent("Bearer " + SECRET + "x")));
    }

    @Test
    void theReservedConcurrencyAddsUpWithinThePoolAndTheAccount() {
        Map<String, Integer> reserved = new TreeMap<>();
        for (String function : List.of(deployed.functionName(), deployed.leaseFunctionName(), deployed.output("LeaseAuthorizerFunctionName"))) {
            reserved.put(function, deployed.lambda.getFunctionConcurrency(b -> b.functionName(function)).reservedConcurrentExecutions());
        }
        assertEquals(Map.of(deployed.functionName(), 40, deployed.leaseFunctionName(), 8, deployed.output("LeaseAuthorizerFunctionName"), 2),
                reserved, "each function on its own reservation: ReservedConcurrency, LeaseConcurrency, AuthorizerConcurrency");
        // Only the ids function's environments hold slots: 40 of them and the 48 agents' slots fit the 128 of datacenters 8-11.
        assertTrue(reserved.get(deployed.functionName()) + 48 <= 4 * 32);
        // The account reserves all three and keeps at least 100 unreserved, even at each parameter's largest value.
        int deployedSum = reserved.values().stream().mapToInt(Integer::intValue).sum();
        int largest = largest("ReservedConcurrency") + largest("LeaseConcurrency") + largest("AuthorizerConcurrency");
        assertTrue(deployedSum <= largest && largest <= ACCOUNT_CONCURRENCY - UNRESERVED_MINIMUM,
                "reserved " + deployedSum + ", at most " + largest + " of an account's default " + ACCOUNT_CONCURRENCY);
    }

    /** The largest allowed value of a concurrency parameter, as the template declares it. */
    private int largest(String parameter) {
        return list(map(Template.load().parameters().get(parameter)).get("AllowedValues")).stream()
                .mapToInt(value -> Integer.parseInt(String.valueOf(value))).max().orElseThrow();
    }

    /** The parts of an HTTP API's payload 2.0 authorizer event the authorizer reads (the secret needs no JSON escape). */
    private static String authorizerEvent(String authorization) {
        return "{\"version\":\"2.0\",\"type\":\"REQUEST\",\"routeKey\":\"POST /leases\",\"headers\":{\"authorization\":\""
                + authorization + "\"}}";
    }

    private static String authorize(LeaseAuthorizerHandler handler, String event) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The integration URI that invokes the function's alias "live", the one published version. */
    private String invokesAlias(String function) {
        List<String> versions = deployed.lambda.listVersionsByFunction(b -> b.functionName(function)).versions().stream()
                .map(FunctionConfiguration::version).filter(v -> !v.equals("$LATEST")).toList();
        assertEquals(1, versions.size(), "AutoPublishAlias publishes one version of " + function + ": " + versions);
        var alias = deployed.lambda.getAlias(b -> b.functionName(function).name("live"));
        assertEquals(versions.get(0), alias.functionVersion());
        return "arn:aws:apigateway:" + REGION.id() + ":lambda:path/2015-03-31/functions/" + alias.aliasArn() + "/invocations";
    }

    @Test
    void theLogGroupsKeepTheirLogsAndTheStageThrottlesAndLogsAccessAsTheParametersSay() {
        Map<String, Integer> retention = new TreeMap<>();
        deployed.logs.describeLogGroups(b -> b.logGroupNamePrefix("/snowid/" + deployed.stack + "/")).logGroups()
                .forEach(group -> retention.put(group.logGroupName(), group.retentionInDays()));
        assertEquals(Map.of("/snowid/" + deployed.stack + "/function", 14, "/snowid/" + deployed.stack + "/api-access", 7), retention);

        var stage = deployed.apiGateway.getStage(b -> b.apiId(deployed.value("Api")).stageName("$default"));
        assertEquals(500.0, stage.defaultRouteSettings().throttlingRateLimit());
        assertEquals(64, stage.defaultRouteSettings().throttlingBurstLimit());
        // The public routes' own buckets, below the stage's that the lease routes keep.
        assertEquals(new TreeSet<>(List.of("GET /ids", "POST /ids", "GET /ids/{id}", "GET /health", "$default")),
                new TreeSet<>(stage.routeSettings().keySet()));
        stage.routeSettings().forEach((route, limits) -> {
            assertEquals(300.0, limits.throttlingRateLimit(), route);
            assertEquals(32, limits.throttlingBurstLimit(), route);
        });
        assertEquals("arn:aws:logs:" + REGION.id() + ":" + deployed.account() + ":log-group:/snowid/" + deployed.stack + "/api-access:*",
                stage.accessLogSettings().destinationArn());
        assertTrue(stage.accessLogSettings().format().startsWith("{\"requestId\":\"$context.requestId\""),
                stage.accessLogSettings().format());
    }

    @Test
    void everyAlarmWatchesTheFunctionsMetricsAndNotifiesTheStacksTopic() {
        String topic = deployed.physicalId("AlarmTopic");
        assertTrue(topic.startsWith("arn:aws:sns:"), "the alarm topic moto's CloudFormation made: " + topic);
        List<Node> alarms = deployed.cloudWatch.alarms(deployed.stack + "-");
        assertEquals(deployed.translated.resourcesOfType("AWS::CloudWatch::Alarm").size(), alarms.size());
        for (Node alarm : alarms) {
            String name = MotoCloudWatch.texts(alarm, "*[local-name()='AlarmName']").get(0);
            assertEquals(List.of(topic), MotoCloudWatch.texts(alarm, "*[local-name()='AlarmActions']/*"), name);
            assertEquals(List.of(topic), MotoCloudWatch.texts(alarm, "*[local-name()='OKActions']/*"), name);
            List<String> namespaces = MotoCloudWatch.texts(alarm, ".//*[local-name()='Namespace']");
            assertFalse(namespaces.isEmpty(), name);
            assertEquals(Set.of(NAMESPACE), Set.copyOf(namespaces), name);
            List<String> services = MotoCloudWatch.texts(alarm,
                    ".//*[local-name()='Dimensions']/*[*[local-name()='Name']='Service']/*[local-name()='Value']");
            assertEquals(namespaces.size(), services.size(), name + ": every metric has a Service dimension");
            assertEquals(Set.of(deployed.stack), Set.copyOf(services), name + ": the Service dimension is the stack's name when ServiceName is empty");
        }
    }

    @Test
    void theDashboardIsJsonOverTheFunctionsMetrics() {
        String body = deployed.cloudWatch.dashboardBody(deployed.stack + "-snowid");
        assertFalse(body.contains("${"), "every substitution was made: " + body);
        JsonNode widgets = json(body).field("widgets").orElseThrow();
        assertFalse(widgets.asArray().isEmpty(), body);
        assertTrue(body.contains("\"" + NAMESPACE + "\"") && body.contains("\"" + deployed.stack + "\""), body);
    }

    @Test
    void theFunctionReportsItsVersionAndIssuesIdsAndLeasesFromItsPoolOnTheDeployedTable() {
        try (SnowidHandler handler = SnowidHandler.builder(FunctionSettings.from(localEnvironment(deployed.functionName()))).build()) {
            JsonNode health = body(invoke(handler, "GET", "/health", "", null), 200);
            assertEquals(System.getProperty("snowid.version"), health.field("version").orElseThrow().text(), health.toString());
            JsonNode ids = body(invoke(handler, "GET", "/ids", "count=3", null), 200);
            assertEquals(3, ids.field("ids").orElseThrow().asArray().size(), ids.toString());
            // Datacenters 8-11 are slots 256-383; AgentSlots=48 gives POST /leases the last 48 of them.
            for (JsonNode id : ids.field("ids").orElseThrow().asArray()) {
                SnowflakeId decoded = SnowflakeCodec.TWITTER.parse(id.text());
                int slot = decoded.datacenter() * 32 + decoded.machine();
                assertTrue(slot >= 256 && slot < 336, "the function's own slot " + slot + " lies in its part, 256-335: " + decoded);
            }
            // The lease routes are the lease function's: the ids function refuses them.
            body(invoke(handler, "POST", "/leases", "", "Bearer " + SECRET), 404);
            JsonNode lease;
            FunctionSettings leaseFunction = FunctionSettings.from(localEnvironment(deployed.leaseFunctionName()));
            try (SnowidHandler leases = SnowidHandler.builder(leaseFunction).build()) {
                lease = body(invoke(leases, "POST", "/leases", "", "Bearer " + SECRET), 201);
                body(invoke(leases, "GET", "/ids", "", null), 404);
                // An acquisition with a request id writes the id's claim too: on the deployed table, with its TTL attribute.
                String withId = HttpApiEvent.request("POST", "/leases").routeKey(Endpoint.routeKeyOf("POST", "/leases")).requestId(UUID.randomUUID().toString())
                        .header("authorization", "Bearer " + SECRET)
                        .body(LeaseMessage.acquireRequest("moto", "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21"), false).json();
                JsonNode claimed = body(invoke(leases, withId), 201);
                assertEquals(claimed.toString(), body(invoke(leases, withId), 201).toString(), "the retry gets the same lease");
            }
            int leased = Integer.parseInt(lease.field("slot").orElseThrow().asNumber());
            assertTrue(leased >= 336 && leased < 384, "a leased slot lies in the agents' part, 336-383: " + lease);

            List<Map<String, AttributeValue>> items = deployed.dynamoDb.scan(b -> b.tableName(deployed.output("TableName"))
                    .consistentRead(true)).items();
            assertEquals(4, items.size(), "the function's slot, two agents' and one request id's claim: " + items);
            for (Map<String, AttributeValue> item : items) {
                boolean slot = LeaseTableSchema.slotIndexOf(item.get(LeaseTableSchema.SLOT).n()).isPresent();
                assertTrue(item.containsKey(slot ? LeaseTableSchema.OWNER : LeaseTableSchema.CLAIM_OWNER), item.toString());
                assertTrue(item.containsKey(LeaseTableSchema.TTL), "the TTL the deployed table cleans up by: " + item);
            }
        }
    }

    /** A deployed function's environment, plus the one setting a run outside Lambda adds: where DynamoDB is. */
    private Map<String, String> localEnvironment(String function) {
        Map<String, String> environment = new HashMap<>(deployed.lambda.getFunctionConfiguration(b -> b.functionName(function))
                .environment().variables());
        environment.put(FunctionSettings.DYNAMODB_ENDPOINT, deployed.endpoint);
        return environment;
    }

    static String invoke(SnowidHandler handler, String method, String path, String query, String authorization) {
        return invoke(handler, event(method, path, query, authorization));
    }

    private static String invoke(SnowidHandler handler, String event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The event API Gateway passes for this request (payload 2.0). */
    static String event(String method, String path, String query, String authorization) {
        HttpApiEvent event = HttpApiEvent.request(method, path).routeKey(Endpoint.routeKeyOf(method, path)).rawQuery(query).requestId(UUID.randomUUID().toString());
        if (authorization != null) {
            event.header("authorization", authorization);
        }
        return event.json();
    }

    static JsonNode body(String response, int status) {
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


    static String sha256(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
