package dev.snowid.infra;

import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.engine.DynamoDbEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.apigatewayv2.ApiGatewayV2Client;
import software.amazon.awssdk.services.apigatewayv2.model.ProtocolType;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.StackResource;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.FunctionConfiguration;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The template deployed on moto: translated by the SAM translator, the function jar in moto's
 * S3, the stack on moto's CloudFormation, and what moto's CloudFormation does not build (the
 * alias, the HTTP API and its stage, the permission) created through moto's service APIs from
 * the translated template's own properties, their intrinsic functions resolved against the
 * stack. Holds a client for every service involved, and what Ref, GetAtt and the outputs stand for.
 */
final class MotoStack {

    static final Region REGION = Region.US_EAST_1;

    /** Built by moto's CloudFormation, by the test through moto's service APIs, or not at all (docs/contributing.md, "Test engines", says why). */
    private enum Coverage { CLOUDFORMATION, SERVICE_API, NOT_COVERED }

    /** How each resource type of the translated template gets built on moto; a new type must be added here. */
    private static final Map<String, Coverage> COVERAGE = Map.ofEntries(
            Map.entry("AWS::DynamoDB::Table", Coverage.CLOUDFORMATION),
            Map.entry("AWS::Logs::LogGroup", Coverage.CLOUDFORMATION),
            Map.entry("AWS::IAM::Role", Coverage.CLOUDFORMATION),
            // The claim registry's grant to the role (RegistryTable set).
            Map.entry("AWS::IAM::Policy", Coverage.CLOUDFORMATION),
            Map.entry("AWS::Lambda::Function", Coverage.CLOUDFORMATION),
            Map.entry("AWS::Lambda::Version", Coverage.CLOUDFORMATION),
            Map.entry("AWS::SNS::Topic", Coverage.CLOUDFORMATION),
            Map.entry("AWS::CloudWatch::Dashboard", Coverage.CLOUDFORMATION),
            // Not in moto's CloudFormation; the permission names the alias, so it follows it.
            Map.entry("AWS::Lambda::Alias", Coverage.SERVICE_API),
            Map.entry("AWS::ApiGatewayV2::Api", Coverage.SERVICE_API),
            Map.entry("AWS::ApiGatewayV2::Stage", Coverage.SERVICE_API),
            Map.entry("AWS::Lambda::Permission", Coverage.SERVICE_API),
            Map.entry("AWS::CloudWatch::Alarm", Coverage.SERVICE_API),
            // The lease clients' policy names the API's ARN, so it follows the API.
            Map.entry("AWS::IAM::ManagedPolicy", Coverage.SERVICE_API),
            // An e-mail subscription waits for a click in the mail; the test gives no AlarmEmail.
            Map.entry("AWS::SNS::Subscription", Coverage.NOT_COVERED),
            // LeaseEndpoint=vpc only (off by default): a private REST API needs a VPC endpoint, which moto's
            // API Gateway does not enforce; PrivateLeaseApiTest checks its shape, cfn-lint its schema.
            Map.entry("AWS::ApiGateway::RestApi", Coverage.NOT_COVERED),
            Map.entry("AWS::ApiGateway::Deployment", Coverage.NOT_COVERED),
            Map.entry("AWS::ApiGateway::Stage", Coverage.NOT_COVERED),
            // ManagedInstances=on only (off by default): moto has no capacity providers; ManagedInstancesTemplateTest
            // checks the option's shape and the SAM transform, cfn-lint its schema with the option on.
            Map.entry("AWS::Lambda::CapacityProvider", Coverage.NOT_COVERED));
    /** The order the test creates them in: each may name the ones before it. */
    private static final List<String> SERVICE_API_ORDER = List.of("AWS::Lambda::Alias", "AWS::ApiGatewayV2::Api",
            "AWS::ApiGatewayV2::Stage", "AWS::Lambda::Permission", "AWS::CloudWatch::Alarm", "AWS::IAM::ManagedPolicy");

    final String stack;
    final Map<String, String> parameters;
    /** The region it is deployed in: moto's one server serves every region. */
    final Region region;


    final String endpoint;
    final Path jar;
    final Template translated;
    final CloudFormationClient cloudFormation;
    final LambdaClient lambda;
    final IamClient iam;
    final DynamoDbClient dynamoDb;
    final ApiGatewayV2Client apiGateway;
    final CloudWatchLogsClient logs;
    final MotoCloudWatch cloudWatch;
    final Map<String, String> values = new HashMap<>();
    final Map<String, String> outputs = new HashMap<>();
    Intrinsics intrinsics;

    private MotoStack(DynamoDbEngine.Running moto, String stack, Map<String, String> parameters, Template translated, Path jar,
            Region region) {
        this.region = region;
        this.stack = stack;
        this.parameters = parameters;
        this.endpoint = moto.endpoint().toString();
        this.translated = translated;
        this.jar = jar;
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create("moto", "moto"));
        SdkHttpClient http = UrlConnectionHttpClient.builder().socketTimeout(Duration.ofSeconds(60)).build();
        this.cloudFormation = CloudFormationClient.builder().endpointOverride(moto.endpoint()).region(region)
                .credentialsProvider(credentials).httpClient(http).build();
        this.lambda = LambdaClient.builder().endpointOverride(moto.endpoint()).region(region)
                .credentialsProvider(credentials).httpClient(http).build();
        this.iam = IamClient.builder().endpointOverride(moto.endpoint()).region(region)
                .credentialsProvider(credentials).httpClient(http).build();
        this.dynamoDb = region.equals(REGION) ? moto.client() : DynamoDbClient.builder().endpointOverride(moto.endpoint()).region(region)
                .credentialsProvider(credentials).httpClient(http).build();
        this.apiGateway = ApiGatewayV2Client.builder().endpointOverride(moto.endpoint()).region(region)
                .credentialsProvider(credentials).httpClient(http).build();
        this.logs = CloudWatchLogsClient.builder().endpointOverride(moto.endpoint()).region(region)
                .credentialsProvider(credentials).httpClient(http).build();
        this.cloudWatch = new MotoCloudWatch(moto.endpoint(), region.id());
    }

    /** Uploads the function jar, translates the template and deploys it as {@code stack} with {@code parameters}. */
    static MotoStack deploy(DynamoDbEngine.Running moto, String stack, Map<String, String> parameters) {
        return deploy(moto, stack, parameters, REGION);
    }

    /** As {@link #deploy(DynamoDbEngine.Running, String, Map)}, in {@code region}: the jar in a bucket of that region, as sam deploy puts it. */
    static MotoStack deploy(DynamoDbEngine.Running moto, String stack, Map<String, String> parameters, Region region) {
        Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
        String bucket = "snowid-artifacts-" + region.id();
        String codeUri = "s3://" + bucket + "/snowid-function.jar";
        Template translated = SamTranslator.translate(Template.location(), codeUri, region.id());
        MotoStack deployment = new MotoStack(moto, stack, parameters, translated, jar, region);
        try (S3Client s3 = S3Client.builder().endpointOverride(moto.endpoint()).region(region).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("moto", "moto")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            if (!s3.listBuckets().buckets().stream().anyMatch(b -> b.name().equals(bucket))) {
                s3.createBucket(b -> b.bucket(bucket).createBucketConfiguration(c -> {
                    if (!region.equals(Region.US_EAST_1)) {
                        c.locationConstraint(region.id());
                    }
                }));
            }
            s3.putObject(b -> b.bucket(bucket).key("snowid-function.jar"), RequestBody.fromFile(jar));
        }
        deployment.create();
        return deployment;
    }

    /** moto's account when MOTO_ACCOUNT_ID is not set: the CDK's asset bucket names it. */
    static final String MOTO_ACCOUNT = "123456789012";

    /**
     * A synthesized CDK stack, deployed as {@code cdk deploy} would: its file assets uploaded where
     * the template expects them (the bootstrap bucket's name resolved for moto's account), the SAM
     * transform run on the template as it is, the stack created. {@code jar} is the function jar
     * the asset must be.
     */
    static MotoStack deploySynthesized(DynamoDbEngine.Running moto, CdkSynthesis synthesized, Path jar) {
        Template translated = new Template(map(CdkSynthesis.getAttAsList(
                SamTranslator.translate(synthesized.template(), "-", REGION.id()).root())));
        MotoStack deployment = new MotoStack(moto, synthesized.stackName(), Map.of(), translated, jar, REGION);
        try (S3Client s3 = S3Client.builder().endpointOverride(moto.endpoint()).region(REGION).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("moto", "moto")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            for (CdkSynthesis.FileAsset asset : synthesized.fileAssets()) {
                String bucket = asset.bucket().replace("${AWS::AccountId}", MOTO_ACCOUNT).replace("${AWS::Region}", REGION.id());
                if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(bucket))) {
                    s3.createBucket(b -> b.bucket(bucket));
                }
                s3.putObject(b -> b.bucket(bucket).key(asset.key()), RequestBody.fromFile(asset.file()));
            }
        }
        deployment.create();
        return deployment;
    }

    /** A plain CloudFormation template (no SAM transform: infra/registry.yaml) deployed as {@code stack} in {@code region}. */
    static MotoStack deployPlain(DynamoDbEngine.Running moto, String stack, Map<String, String> parameters, Region region, Path template) {
        MotoStack deployment = new MotoStack(moto, stack, parameters, new Template(CloudFormationYaml.load(template)), null, region);
        deployment.create();
        return deployment;
    }

    private void create() {
        Map<String, List<String>> byCoverage = new HashMap<>();
        translated.resources().forEach((id, resource) -> {
            String type = (String) map(resource).get("Type");
            Coverage coverage = COVERAGE.get(type);
            if (coverage == null) {
                throw new AssertionError("the translated template has a " + type + " (" + id + ") that the deploy test"
                        + " does not know: add it to MotoStack.COVERAGE, and to docs/contributing.md");
            }
            byCoverage.computeIfAbsent(coverage.name(), c -> new ArrayList<>()).add(id);
        });
        List<String> createdByTest = byCoverage.getOrDefault(Coverage.SERVICE_API.name(), List.of());
        List<String> notCovered = byCoverage.getOrDefault(Coverage.NOT_COVERED.name(), List.of());

        Template forCloudFormation = translated.copy();
        forCloudFormation.resources().keySet().removeAll(createdByTest);
        forCloudFormation.resources().keySet().removeAll(notCovered);
        Map<String, Object> laterOutputs = new LinkedHashMap<>();
        map(forCloudFormation.root().getOrDefault("Outputs", new LinkedHashMap<>())).entrySet().removeIf(output -> {
            boolean namesOne = createdByTest.stream().anyMatch(id -> output.getValue().toString().contains(id))
                    || notCovered.stream().anyMatch(id -> output.getValue().toString().contains(id));
            if (namesOne) {
                laterOutputs.put(output.getKey(), output.getValue());
            }
            return namesOne;
        });

        cloudFormation.createStack(b -> b.stackName(stack).templateBody(yaml(forCloudFormation.root()))
                .capabilities(Capability.CAPABILITY_IAM, Capability.CAPABILITY_AUTO_EXPAND)
                .parameters(parameters.entrySet().stream()
                        .map(p -> Parameter.builder().parameterKey(p.getKey()).parameterValue(p.getValue()).build())
                        .toList()));
        var described = cloudFormation.waiter().waitUntilStackCreateComplete(b -> b.stackName(stack),
                w -> w.waitTimeout(Duration.ofMinutes(2))).matched();
        assertTrue(described.response().isPresent(), "stack not created: " + described.exception());
        var created = described.response().get().stacks().get(0);
        assertEquals(StackStatus.CREATE_COMPLETE, created.stackStatus(), created.stackStatusReason());
        created.outputs().forEach(o -> outputs.put(o.outputKey(), o.outputValue()));

        collectValues();
        for (String type : SERVICE_API_ORDER) {
            for (String id : createdByTest) {
                Map<String, Object> resource = translated.resource(id);
                boolean wanted = !resource.containsKey("Condition") || intrinsics.condition((String) resource.get("Condition"));
                if (type.equals(resource.get("Type")) && wanted) {
                    createThroughServiceApi(id, type, intrinsics.resolve(translated.properties(id)));
                    collectIntrinsics();
                }
            }
        }
        laterOutputs.forEach((key, output) -> {
            Object condition = map(output).get("Condition");
            if (condition == null || intrinsics.condition((String) condition)) {
                outputs.put(key, intrinsics.string(map(output).get("Value")));
            }
        });
    }

    /** What Ref and GetAtt stand for on this stack, as far as moto built it. */
    private void collectValues() {
        values.put("AWS::Region", region.id());
        values.put("AWS::Partition", "aws");
        values.put("AWS::URLSuffix", "amazonaws.com");
        values.put("AWS::StackName", stack);
        translated.parameters().forEach((name, parameter) ->
                values.put(name, String.valueOf(map(parameter).getOrDefault("Default", ""))));
        values.putAll(parameters);
        for (StackResource resource : cloudFormation.describeStackResources(b -> b.stackName(stack)).stackResources()) {
            values.put(resource.logicalResourceId(), resource.physicalResourceId());
        }
        String account = null;
        for (String id : translated.resources().keySet()) {
            String type = (String) map(translated.resource(id)).get("Type");
            String physical = values.get(id);
            if (physical == null) {
                continue; // not created: its condition is false (or it is the test's to create)
            }
            switch (type) {
                case "AWS::Lambda::Function" -> {
                    String arn = lambda.getFunctionConfiguration(b -> b.functionName(physical)).functionArn();
                    values.put(id + ".Arn", arn);
                    account = arn.split(":")[4];
                }
                case "AWS::DynamoDB::Table" -> values.put(id + ".Arn",
                        dynamoDb.describeTable(b -> b.tableName(physical)).table().tableArn());
                case "AWS::IAM::Role" -> values.put(id + ".Arn", iam.getRole(b -> b.roleName(physical)).role().arn());
                default -> {
                    // Log groups: below, once the account is known. The rest has no attribute the template reads.
                }
            }
        }
        values.put("AWS::AccountId", account);
        for (String logGroup : translated.resourcesOfType("AWS::Logs::LogGroup")) {
            // CloudFormation's Arn attribute of a log group, with its trailing ":*".
            values.put(logGroup + ".Arn", "arn:aws:logs:" + region.id() + ":" + account + ":log-group:" + values.get(logGroup) + ":*");
        }
        for (String version : translated.resourcesOfType("AWS::Lambda::Version")) {
            if (!values.containsKey(version)) {
                continue; // its function's condition is false
            }
            String function = new Intrinsics(values, Map.of()).string(translated.properties(version).get("FunctionName"));
            List<String> published = lambda.listVersionsByFunction(b -> b.functionName(function)).versions().stream()
                    .map(FunctionConfiguration::version).filter(v -> !v.equals("$LATEST")).toList();
            values.put(version + ".Version", published.get(published.size() - 1));
        }
        collectIntrinsics();
    }

    private void collectIntrinsics() {
        intrinsics = new Intrinsics(values, map(translated.root().getOrDefault("Conditions", Map.of())));
    }

    private void createThroughServiceApi(String id, String type, Object resolved) {
        Map<String, Object> properties = map(resolved);
        switch (type) {
            case "AWS::Lambda::Alias" -> values.put(id, lambda.createAlias(b -> b
                    .functionName((String) properties.get("FunctionName"))
                    .name((String) properties.get("Name"))
                    .functionVersion((String) properties.get("FunctionVersion"))).aliasArn());
            case "AWS::ApiGatewayV2::Api" -> {
                String api = apiGateway.createApi(b -> b.name(stack + "-" + id).protocolType(ProtocolType.HTTP)).apiId();
                values.put(id, api);
                // Only now can the body's integration URIs be resolved (they name the alias).
                apiGateway.reimportApi(b -> b.apiId(api).body(yaml(properties.get("Body"))));
                authorizeRoutes(api, map(properties.get("Body")));
            }
            case "AWS::ApiGatewayV2::Stage" -> {
                Map<String, Object> routes = map(properties.getOrDefault("DefaultRouteSettings", Map.of()));
                Map<String, Object> accessLog = map(properties.getOrDefault("AccessLogSettings", Map.of()));
                apiGateway.createStage(b -> b.apiId((String) properties.get("ApiId"))
                        .stageName((String) properties.get("StageName"))
                        .autoDeploy((Boolean) properties.getOrDefault("AutoDeploy", false))
                        .defaultRouteSettings(r -> r
                                .throttlingBurstLimit(number(routes.get("ThrottlingBurstLimit")).map(Number::intValue).orElse(null))
                                .throttlingRateLimit(number(routes.get("ThrottlingRateLimit")).map(Number::doubleValue).orElse(null)))
                        .routeSettings(routeSettings(properties.get("RouteSettings")))
                        .accessLogSettings(a -> a.destinationArn((String) accessLog.get("DestinationArn"))
                                .format((String) accessLog.get("Format"))));
            }
            case "AWS::Lambda::Permission" -> lambda.addPermission(b -> b.statementId(id)
                    .functionName((String) properties.get("FunctionName"))
                    .action((String) properties.get("Action"))
                    .principal((String) properties.get("Principal"))
                    .sourceArn((String) properties.get("SourceArn")));
            case "AWS::CloudWatch::Alarm" -> createAlarm(id, properties);
            case "AWS::IAM::ManagedPolicy" -> values.put(id, iam.createPolicy(b -> b.policyName(stack + "-" + region.id() + "-" + id)
                    .description((String) properties.get("Description"))
                    .policyDocument(json(properties.get("PolicyDocument")))).policy().arn());
            default -> throw new AssertionError("no way to create " + type);
        }
    }

    /**
     * What API Gateway's import does with each operation's {@code security} and moto's ignores:
     * a SigV4 scheme makes the route's authorization {@code AWS_IAM}; a scheme with an
     * {@code x-amazon-apigateway-authorizer} becomes one authorizer of the API (created once, with
     * the scheme's settings), which the route's authorization ({@code CUSTOM}) names. The route is
     * made anew with it (UpdateRoute is a PATCH, which the tests' HTTP client cannot send).
     */
    private void authorizeRoutes(String api, Map<String, Object> body) {
        Map<String, Object> schemes = map(Template.at(body, "components", "securitySchemes").orElse(Map.of()));
        Map<String, software.amazon.awssdk.services.apigatewayv2.model.Route> routes = new HashMap<>();
        apiGateway.getRoutes(b -> b.apiId(api)).items().forEach(route -> routes.put(route.routeKey(), route));
        Map<String, String> authorizerIds = new HashMap<>();
        map(body.getOrDefault("paths", Map.of())).forEach((path, operations) -> map(operations).forEach((method, operation) -> {
            List<Object> security = Template.list(map(operation).getOrDefault("security", List.of()));
            if (security.isEmpty()) {
                return;
            }
            String scheme = map(security.get(0)).keySet().iterator().next();
            Map<String, Object> definition = map(schemes.get(scheme));
            var route = routes.get(method.toUpperCase() + " " + path);
            apiGateway.deleteRoute(b -> b.apiId(api).routeId(route.routeId()));
            if ("awsSigv4".equals(definition.get("x-amazon-apigateway-authtype"))) {
                apiGateway.createRoute(b -> b.apiId(api).routeKey(route.routeKey()).target(route.target()).authorizationType("AWS_IAM"));
                return;
            }
            Map<String, Object> authorizer = map(definition.get("x-amazon-apigateway-authorizer"));
            String authorizerId = authorizerIds.computeIfAbsent(scheme, name -> apiGateway.createAuthorizer(b -> b.apiId(api).name(name)
                    .authorizerType(String.valueOf(authorizer.get("type")).toUpperCase())
                    .authorizerUri((String) authorizer.get("authorizerUri"))
                    .authorizerPayloadFormatVersion((String) authorizer.get("authorizerPayloadFormatVersion"))
                    .authorizerResultTtlInSeconds((Integer) authorizer.get("authorizerResultTtlInSeconds"))
                    .enableSimpleResponses((Boolean) authorizer.get("enableSimpleResponses"))
                    .identitySource(List.of((String) authorizer.get("identitySource")))).authorizerId());
            apiGateway.createRoute(b -> b.apiId(api).routeKey(route.routeKey()).target(route.target()).authorizationType("CUSTOM")
                    .authorizerId(authorizerId));
        }));
    }

    /** PutMetricAlarm with the properties CloudFormation would pass; CloudFormation names it stack-id. */
    private void createAlarm(String id, Map<String, Object> alarm) {
        String name = stack + "-" + id;
        cloudWatch.putMetricAlarm(name, alarm);
        values.put(id, name);
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

    /** The public routes' function. */
    String functionName() {
        return output("FunctionName");
    }

    /** The lease routes' function. */
    String leaseFunctionName() {
        return output("LeaseFunctionName");
    }

    /** A stage's per-route throttles, as CloudFormation passes them to API Gateway. */
    private static Map<String, software.amazon.awssdk.services.apigatewayv2.model.RouteSettings> routeSettings(Object declared) {
        Map<String, software.amazon.awssdk.services.apigatewayv2.model.RouteSettings> settings = new java.util.TreeMap<>();
        map(declared == null ? Map.of() : declared).forEach((route, value) -> {
            Map<String, Object> limits = map(value);
            settings.put(route, software.amazon.awssdk.services.apigatewayv2.model.RouteSettings.builder()
                    .throttlingBurstLimit(number(limits.get("ThrottlingBurstLimit")).map(Number::intValue).orElse(null))
                    .throttlingRateLimit(number(limits.get("ThrottlingRateLimit")).map(Number::doubleValue).orElse(null)).build());
        });
        return settings;
    }

    String account() {
        return values.get("AWS::AccountId");
    }

    /** A parameter's value as the template resolves it: a string, since parameters are strings. */
    private static Optional<Double> number(Object value) {
        return value == null ? Optional.empty() : Optional.of(Double.valueOf(String.valueOf(value)));
    }

    /** JSON for plain maps, lists and strings (a policy document): YAML's flow style with every scalar quoted. */
    private static String json(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.FLOW);
        options.setDefaultScalarStyle(DumperOptions.ScalarStyle.DOUBLE_QUOTED);
        options.setWidth(Integer.MAX_VALUE);
        return new Yaml(options).dump(value).strip();
    }

    /** YAML for plain maps and lists (the template, the API's OpenAPI body): CloudFormation and API Gateway read it. */
    private static String yaml(Object value) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(value);
    }
}
