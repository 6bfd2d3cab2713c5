package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.settings.FunctionSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checks can fail: when the code's names change and the template does not follow, or the
 * template changes on its own, the build breaks. Each test starts from the real template (which
 * passes, see {@link TemplateMatchesCodeTest}) and changes one thing.
 */
class TemplateDriftTest {

    private final Template template = Template.load();
    private final CodeNames code = CodeNames.fromCode();
    private final MetricNames metrics = MetricNames.fromCode();

    // --- the code moves on, the template stays -----------------------------------------------

    @Test
    void renamingTheTtlAttributeInTheCodeFailsTheTableCheck() {
        List<String> problems = TemplateChecks.table(template, code.withTtlAttribute("expiresAfter"));
        assertMentions(problems, "TTL attribute: expected expiresAfter, found " + LeaseTableSchema.TTL);
    }

    @Test
    void renamingTheKeyInTheCodeFailsTheTableCheck() {
        List<String> problems = TemplateChecks.table(template, code.withKeyAttribute("slotId"));
        assertMentions(problems, "KeySchema");
        assertMentions(problems, "'" + LeaseTableSchema.SLOT + "' is not one of LeaseTableSchema's names");
    }

    @Test
    void aStoreThatCallsOneMoreActionFailsTheIamCheck() {
        List<String> actions = new ArrayList<>(LeaseTableSchema.ACTIONS_USED);
        actions.add("dynamodb:DeleteItem");
        assertMentions(TemplateChecks.iam(template, code.withActionsUsed(actions)), "differ from LeaseTableSchema.ACTIONS_USED");
    }

    @Test
    void aRegistryGrantWiderThanItsActionsOrOnAnotherTableFails() {
        Template changed = template.copy();
        Map<String, Object> statement = map(list(map(changed.properties("RegistryPolicy").get("PolicyDocument")).get("Statement")).get(0));
        list(statement.get("Action")).add("dynamodb:DeleteItem");
        assertMentions(TemplateChecks.iam(changed, code), "differ from RegistrySchema.ACTIONS_USED");
        statement.put("Resource", Map.of("Fn::Sub", List.of("arn:${AWS::Partition}:dynamodb:${Home}:${AWS::AccountId}:table/*",
                Map.of("Home", "eu-west-1"))));
        assertMentions(TemplateChecks.iam(changed, code), "expected this table's ARN only");
    }

    @Test
    void aNewSettingTheTemplateDoesNotSetFailsTheEnvironmentCheck() {
        List<String> problems = TemplateChecks.environment(template, code.withFunctionVariable("SNOWID_REGION_NAME"));
        assertMentions(problems, "FunctionSettings reads [SNOWID_REGION_NAME] but the template does not set them");
    }

    @Test
    void aPoolSplitFurtherNeedsAnOccupancyAlarmForEachPart() {
        List<String> problems = TelemetryChecks.requiredAlarms(template, metrics.withPoolPart("batch-jobs"));
        assertMentions(problems, "no alarm on PoolOccupancy of pool part 'batch-jobs'");
    }

    @Test
    void aSplitPoolWithoutAnAlarmOnTheAgentsPartFails() {
        Template changed = template.copy();
        changed.resources().remove("AgentsPartNearlyFullAlarm");
        assertMentions(TelemetryChecks.requiredAlarms(changed, metrics), "no alarm on PoolOccupancy of pool part 'agents'");
    }

    // --- the template moves on, the code stays -----------------------------------------------

    @Test
    void anAlarmOnAMetricTheFunctionDoesNotEmitFails() {
        Template changed = template.copy();
        changed.properties("FunctionPartNearlyFullAlarm").put("MetricName", "PoolUsage");
        assertMentions(TelemetryChecks.alarms(changed, metrics), "FunctionPartNearlyFullAlarm watches PoolUsage, which the function does not emit");
        assertMentions(TelemetryChecks.requiredAlarms(changed, metrics), "no alarm on PoolOccupancy of pool part 'function'");
    }

    @Test
    void anAlarmMissingADimensionOrWithAnotherServiceFails() {
        Template changed = template.copy();
        List<Object> dimensions = list(changed.properties("IdsLatencyAlarm").get("Dimensions"));
        dimensions.remove(1);
        map(dimensions.get(0)).put("Value", "another-stack");
        List<String> problems = TelemetryChecks.alarms(changed, metrics);
        assertMentions(problems, "Latency with dimensions [Service], but the function emits it with [Service, Route]");
        assertMentions(problems, "Service is another-stack, not the function's SNOWID_SERVICE");
    }

    @Test
    void anErrorCodeTheFunctionNeverAnswersFails() {
        Template changed = template.copy();
        map(list(changed.properties("NoFreeSlotAlarm").get("Dimensions")).get(1)).put("Value", "no_free_slots");
        assertMentions(TelemetryChecks.alarms(changed, metrics), "Errors ErrorCode=no_free_slots is never emitted");
        assertMentions(TelemetryChecks.requiredAlarms(changed, metrics), "no alarm on Errors with ErrorCode no_free_slot");
    }

    @Test
    void aDashboardRowForHealthOrInAnotherNamespaceFails() {
        Template changed = template.copy();
        Map<String, Object> sub = map(changed.properties("OperationsDashboard").get("DashboardBody"));
        List<Object> parts = list(sub.get("Fn::Sub"));
        String body = String.valueOf(parts.get(0));
        parts.set(0, body.replace("\"Route\", \"/ids/{id}\"", "\"Route\", \"/health\"")
                .replaceFirst("\\$\\{MetricsNamespace}", "snowid-other"));
        List<String> problems = TelemetryChecks.dashboard(changed, metrics);
        assertMentions(problems, "Requests Route=/health is never emitted");
        assertMentions(problems, "namespace snowid-other is not the function's SNOWID_METRICS_NAMESPACE");
    }

    @Test
    void anAlarmThatCannotBeSwitchedOffOrNotifiesNobodyFails() {
        Template changed = template.copy();
        changed.resource("ServerErrorsAlarm").remove("Condition");
        changed.properties("ServerErrorsAlarm").remove("AlarmActions");
        List<String> problems = TelemetryChecks.alarms(changed, metrics);
        assertMentions(problems, "ServerErrorsAlarm has no Condition");
        assertMentions(problems, "ServerErrorsAlarm notifies no SNS topic");
    }

    @Test
    void ttlOnAnotherAttributeFails() {
        Template changed = template.copy();
        map(changed.properties("LeaseTable").get("TimeToLiveSpecification")).put("AttributeName", "expiresAt_ttl");
        assertMentions(TemplateChecks.table(changed, code), "TTL attribute: expected " + LeaseTableSchema.TTL);
    }

    @Test
    void aTableThatCanBeDeletedWithTheStackFails() {
        Template changed = template.copy();
        changed.resource("LeaseTable").put("DeletionPolicy", "Delete");
        assertMentions(TemplateChecks.table(changed, code), "DeletionPolicy: expected Retain");
    }

    @Test
    void aMisspelledVariableFails() {
        Template changed = template.copy();
        Map<String, Object> variables = variables(changed);
        variables.put("SNOWID_TABLE_NAME", variables.remove(FunctionSettings.TABLE));
        List<String> problems = TemplateChecks.environment(changed, code);
        assertMentions(problems, "SNOWID_TABLE_NAME is not a FunctionSettings name");
        assertMentions(problems, "does not set them");
    }

    @Test
    void theLocalEngineEndpointMustNotBeDeployed() {
        Template changed = template.copy();
        variables(changed).put(FunctionSettings.DYNAMODB_ENDPOINT, "http://localhost:8000");
        assertMentions(TemplateChecks.environment(changed, code), "is for local runs only");
    }

    @Test
    void aWildcardActionFails() {
        Template changed = template.copy();
        dynamoDbStatement(changed).put("Action", List.of("dynamodb:*"));
        List<String> problems = TemplateChecks.iam(changed, code);
        assertMentions(problems, "wildcard action dynamodb:*");
    }

    @Test
    void aWildcardResourceFails() {
        Template changed = template.copy();
        dynamoDbStatement(changed).put("Resource", "*");
        assertMentions(TemplateChecks.iam(changed, code), "expected this table's ARN only");
        assertMentions(TemplateChecks.iam(changed, code), "wildcard resource *");
    }

    @Test
    void logsOnEveryLogGroupFail() {
        Template changed = template.copy();
        Map<String, Object> logs = statement(changed, 1);
        logs.put("Resource", Map.of("Fn::Sub", "arn:${AWS::Partition}:logs:${AWS::Region}:${AWS::AccountId}:log-group:*"));
        assertMentions(TemplateChecks.iam(changed, code), "wildcard resource");
    }

    @Test
    void samsDefaultRoleFails() {
        Template changed = template.copy();
        changed.properties("SnowidFunction").remove("Role");
        assertMentions(TemplateChecks.iam(changed, code), "AWSLambdaBasicExecutionRole");
    }

    @Test
    void aMissingRouteFails() {
        Template changed = template.copy();
        paths(changed).remove("/health");
        assertMentions(TemplateChecks.routes(changed), "differ from the HTTP API's (docs/api.md)");
    }

    @Test
    void aLeaseRouteWithoutTheIamSwitchFails() {
        Template changed = template.copy();
        map(paths(changed).get("/leases/{slot}")).entrySet()
                .forEach(operation -> map(operation.getValue()).remove("security"));
        assertMentions(TemplateChecks.routes(changed), "PUT /leases/{slot} must switch on AWS_IAM");
    }

    @Test
    void anApiThatCallsLatestInsteadOfTheAliasFails() {
        Template changed = template.copy();
        Map<String, Object> integration = map(map(map(paths(changed).get("/ids")).get("get"))
                .get("x-amazon-apigateway-integration"));
        integration.put("uri", Map.of("Fn::Sub", "arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/"
                + "2015-03-31/functions/${SnowidFunction.Arn}/invocations"));
        assertMentions(TemplateChecks.routes(changed), "GET /ids calls");
    }

    @Test
    void aSecretHashInPlainTextFails() {
        Template changed = template.copy();
        variables(changed).put(FunctionSettings.LEASE_SECRET_SHA256, "ab".repeat(32));
        assertMentions(TemplateChecks.secret(changed, code), "must come from a NoEcho parameter");
    }

    @Test
    void anotherRuntimeOrHandlerFails() {
        Template changed = template.copy();
        changed.properties("SnowidFunction").put("Runtime", "java17");
        changed.properties("SnowidFunction").put("Handler", "dev.snowid.lambda.Handler::handleRequest");
        List<String> problems = TemplateChecks.function(changed, code);
        assertMentions(problems, "Runtime: expected {Ref=Runtime}");
        assertMentions(problems, "Handler: expected " + code.handler());
    }

    @Test
    void noSnapStartFails() {
        Template changed = template.copy();
        changed.properties("SnowidFunction").put("SnapStart", Map.of("ApplyOn", "None"));
        assertMentions(TemplateChecks.function(changed, code), "SnapStart");
    }

    @Test
    void aLeaseRouteThatReachesThePublicFunctionFails() {
        Template changed = template.copy();
        Map<String, Object> integration = map(map(map(paths(changed).get("/leases/{slot}")).get("put"))
                .get("x-amazon-apigateway-integration"));
        integration.put("uri", Map.of("Fn::Sub", "arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/"
                + "2015-03-31/functions/${SnowidFunction.Alias}/invocations"));
        assertMentions(TemplateChecks.routes(changed), "PUT /leases/{slot} calls");
    }

    @Test
    void aLeaseFunctionInAnotherRoleOrOnThePublicConcurrencyFails() {
        Template changed = template.copy();
        map(at(changed.properties(TemplateChecks.LEASE_FUNCTION), "Environment", "Variables").orElseThrow())
                .put(FunctionSettings.ROLE, "all");
        changed.properties(TemplateChecks.LEASE_FUNCTION).put("ReservedConcurrentExecutions", Map.of("Ref", "ReservedConcurrency"));
        List<String> problems = TemplateChecks.function(changed, code);
        assertMentions(problems, "LeaseFunction SNOWID_ROLE: expected leases");
        assertMentions(problems, "LeaseFunction ReservedConcurrentExecutions (its own");
    }

    @Test
    void anAuthorizerOnTheLeaseFunctionsConcurrencyOrWithoutItsIdentitySourceFails() {
        Template changed = template.copy();
        changed.properties(TemplateChecks.AUTHORIZER_FUNCTION).put("ReservedConcurrentExecutions", Map.of("Ref", TemplateChecks.LEASE_CONCURRENCY));
        changed.properties(TemplateChecks.AUTHORIZER_FUNCTION).put("Role", Map.of("Fn::GetAtt", List.of("FunctionRole", "Arn")));
        List<Object> scheme = Template.list(at(changed.properties("Api"), "DefinitionBody", "components", "securitySchemes",
                TemplateChecks.BEARER_SCHEME, "Fn::If").orElseThrow());
        map(at(scheme.get(1), "x-amazon-apigateway-authorizer").orElseThrow()).remove("identitySource");
        List<String> problems = TemplateChecks.authorizer(changed, code);
        assertMentions(problems, "LeaseAuthorizerFunction ReservedConcurrentExecutions (its own)");
        assertMentions(problems, "LeaseAuthorizerFunction Role");
        assertMentions(problems, "identitySource");
    }

    @Test
    void aLeaseRouteLeftToTheFunctionInBearerModeFails() {
        Template changed = template.copy();
        map(map(paths(changed).get("/leases")).get("post")).put("security",
                Map.of("Fn::If", List.of("LeaseRoutesUseIam", List.of(Map.of("AWS_IAM", List.of())), Map.of("Ref", "AWS::NoValue"))));
        assertMentions(TemplateChecks.routes(changed), "POST /leases must switch on AWS_IAM (SigV4) through a condition, else the LeaseBearer");
    }

    @Test
    void idsWithoutTheIamSwitchFails() {
        Template changed = template.copy();
        map(map(paths(changed).get("/ids")).get("post")).remove("security");
        assertMentions(TemplateChecks.routes(changed), "POST /ids must switch on AWS_IAM");
    }

    // ---------------------------------------------------------------------------------------

    static void assertMentions(List<String> problems, String expected) {
        assertTrue(problems.stream().anyMatch(problem -> problem.contains(expected)),
                "expected a problem mentioning \"" + expected + "\", got " + problems);
    }

    private static Map<String, Object> variables(Template template) {
        return map(at(template.properties("SnowidFunction"), "Environment", "Variables").orElseThrow());
    }

    private static Map<String, Object> paths(Template template) {
        return map(at(template.properties("Api"), "DefinitionBody", "paths").orElseThrow());
    }

    private static Map<String, Object> dynamoDbStatement(Template template) {
        Map<String, Object> statement = statement(template, 0);
        assertTrue(list(statement.get("Action")).stream().allMatch(action -> ((String) action).startsWith("dynamodb:")),
                "the role's first policy is the table's: " + statement);
        return statement;
    }

    /** The first statement of the role's n-th inline policy. */
    private static Map<String, Object> statement(Template template, int policy) {
        Object document = map(list(template.properties("FunctionRole").get("Policies")).get(policy)).get("PolicyDocument");
        return map(list(map(document).get("Statement")).get(0));
    }

    @Test
    void aSplitTheFunctionIsNotToldOfIsCaught() {
        Template changed = Template.load().copy();
        Template.map(Template.at(changed.properties("SnowidFunction"), "Environment", "Variables").orElseThrow())
                .remove(dev.snowid.lambda.settings.FunctionSettings.AGENT_SLOTS);
        assertMentions(TemplateChecks.fleet(changed), "SNOWID_AGENT_SLOTS");
    }

    @Test
    void anUnthrottledStageOrAnAccessLogKeptForeverIsCaught() {
        Template changed = Template.load().copy();
        Template.map(changed.properties("Api")).remove("DefaultRouteSettings");
        Template.map(changed.properties("ApiAccessLogGroup")).remove("RetentionInDays");
        List<String> problems = TemplateChecks.stage(changed);
        assertMentions(problems, "ThrottlingBurstLimit must come from a parameter");
        assertMentions(problems, "keeps access logs forever");
    }
}
