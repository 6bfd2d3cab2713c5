package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;
import static dev.snowid.infra.Template.oneOrMany;

import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.dynamodb.RegistrySchema;
import dev.snowid.lambda.settings.FunctionRole;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.LeaseAuthMode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * What must hold between {@code infra/template.yaml} and the code. Every check returns the
 * problems it found (empty: all good), so the tests can show both that the real template
 * passes and that a template which drifted from the code does not.
 */
final class TemplateChecks {

    static final String FUNCTION_TYPE = "AWS::Serverless::Function";
    static final String TABLE_TYPE = "AWS::DynamoDB::Table";
    static final String HTTP_API_TYPE = "AWS::Serverless::HttpApi";

    /**
     * The routes of the HTTP API, read from the function's route table ({@link Endpoint}), and the
     * catch-all that sends every other request to the function too, so that clients get its JSON
     * 404/405 rather than API Gateway's own answer.
     */
    static final Set<String> ROUTES = routes();

    /** Lambda writes to streams it names itself; these two actions on them are all logging needs. */
    static final Set<String> LOG_ACTIONS = Set.of("logs:CreateLogStream", "logs:PutLogEvents");

    /** The public routes' function: its environments issue IDs, one slot each (SNOWID_ROLE=ids). */
    static final String IDS_FUNCTION = "SnowidFunction";
    /** The lease routes' function: the same jar, no slot of its own (SNOWID_ROLE=leases). */
    static final String LEASE_FUNCTION = "LeaseFunction";
    /** Each function and the role it must be deployed in. */
    static final Map<String, FunctionRole> ROLES = Map.of(IDS_FUNCTION, FunctionRole.IDS, LEASE_FUNCTION, FunctionRole.LEASES);
    /** The parameter of the lease function's own reserved concurrency. */
    static final String LEASE_CONCURRENCY = "LeaseConcurrency";
    /** Bearer mode's authorizer in front of the lease routes: the same jar, its own handler, concurrency and role. */
    static final String AUTHORIZER_FUNCTION = "LeaseAuthorizerFunction";
    /** The parameter of the authorizer's own reserved concurrency. */
    static final String AUTHORIZER_CONCURRENCY = "AuthorizerConcurrency";
    /** The condition the authorizer (and its scheme, role and permission) exist under. */
    static final String BEARER_CONDITION = "LeaseRoutesUseBearer";
    /** The OpenAPI security scheme of the authorizer. */
    static final String BEARER_SCHEME = "LeaseBearer";

    /** The parameter of every function's runtime, and the runtimes the jar is built and tested for. */
    static final String RUNTIME = "Runtime";
    static final List<String> RUNTIMES = List.of("java21", "java25");

    /** The parameter that keeps slots for agents; Lambda environments may use the rest. */
    static final String AGENT_SLOTS = "AgentSlots";

    private TemplateChecks() {
    }

    private static Set<String> routes() {
        Set<String> routes = new TreeSet<>();
        for (Endpoint endpoint : Endpoint.values()) {
            routes.add(endpoint.method() + " " + endpoint.route().template());
        }
        routes.add("X-AMAZON-APIGATEWAY-ANY-METHOD $default");
        return Set.copyOf(routes);
    }

    static List<String> all(Template template, CodeNames code) {
        List<String> problems = new ArrayList<>();
        problems.addAll(table(template, code));
        problems.addAll(function(template, code));
        problems.addAll(environment(template, code));
        problems.addAll(iam(template, code));
        problems.addAll(routes(template));
        problems.addAll(authorizer(template, code));
        problems.addAll(secret(template, code));
        problems.addAll(concurrencyWithinPool(template));
        problems.addAll(ManagedInstancesChecks.all(template));
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // The lease table

    static List<String> table(Template template, CodeNames code) {
        List<String> problems = new ArrayList<>();
        if (!template.resourcesOfType("AWS::DynamoDB::GlobalTable").isEmpty()) {
            problems.add("a global table: its last-writer-wins replication breaks conditional writes; one table per region");
        }
        Optional<String> id = template.single(TABLE_TYPE);
        if (id.isEmpty()) {
            problems.add("expected exactly one " + TABLE_TYPE + ", found " + template.resourcesOfType(TABLE_TYPE));
            return problems;
        }
        Map<String, Object> resource = template.resource(id.get());
        Map<String, Object> table = template.properties(id.get());
        expect(problems, "table DeletionPolicy", "Retain", resource.get("DeletionPolicy"));
        expect(problems, "table UpdateReplacePolicy", "Retain", resource.get("UpdateReplacePolicy"));
        expect(problems, "table BillingMode", "PAY_PER_REQUEST", table.get("BillingMode"));
        expect(problems, "table KeySchema", List.of(Map.of("AttributeName", code.keyAttribute(), "KeyType", "HASH")),
                table.get("KeySchema"));
        expect(problems, "table AttributeDefinitions",
                List.of(Map.of("AttributeName", code.keyAttribute(), "AttributeType", "N")),
                table.get("AttributeDefinitions"));
        expect(problems, "table TTL attribute", code.ttlAttribute(), at(table, "TimeToLiveSpecification", "AttributeName").orElse(null));
        expect(problems, "table TTL enabled", true, at(table, "TimeToLiveSpecification", "Enabled").orElse(null));
        expect(problems, "point-in-time recovery", true,
                at(table, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled").orElse(null));
        expect(problems, "server-side encryption", true, at(table, "SSESpecification", "SSEEnabled").orElse(null));
        if (table.containsKey("Replicas") || table.containsKey("StreamSpecification")) {
            problems.add("the lease table needs neither replicas nor a stream");
        }
        walk(table, (key, value) -> {
            if (key.equals("AttributeName") && !code.attributes().contains(value)) {
                problems.add("table attribute '" + value + "' is not one of LeaseTableSchema's names " + code.attributes());
            }
        });
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // The function

    static List<String> function(Template template, CodeNames code) {
        Set<String> expected = new TreeSet<>(ROLES.keySet());
        expected.add(AUTHORIZER_FUNCTION);
        expected.add(ManagedInstancesChecks.FUNCTION);
        List<Object> runtimes = Template.list(map(template.parameters().getOrDefault(RUNTIME, Map.of())).getOrDefault("AllowedValues", List.of()));
        if (!RUNTIMES.equals(runtimes)) {
            return List.of("parameter " + RUNTIME + " allows " + runtimes + ", expected " + RUNTIMES
                    + " (the runtimes the jar's class files load on and lambda's tests run on)");
        }
        if (!new TreeSet<>(template.resourcesOfType(FUNCTION_TYPE)).equals(expected)) {
            return List.of("expected the functions " + expected + " (" + FUNCTION_TYPE + "), found "
                    + template.resourcesOfType(FUNCTION_TYPE));
        }
        List<String> problems = new ArrayList<>();
        for (String id : ROLES.keySet()) {
            function(template, code, id).forEach(problem -> problems.add(id + ": " + problem));
        }
        Map<String, Object> ids = template.properties(IDS_FUNCTION);
        Map<String, Object> leases = template.properties(LEASE_FUNCTION);
        for (String same : List.of("CodeUri", "Handler", "Runtime", "Role", "Policies", "LoggingConfig", "MemorySize", "Timeout")) {
            expect(problems, LEASE_FUNCTION + " " + same + " (the same artifact as " + IDS_FUNCTION + ")", ids.get(same), leases.get(same));
        }
        expect(problems, LEASE_FUNCTION + " ReservedConcurrentExecutions (its own, not the public routes')",
                Map.of("Ref", LEASE_CONCURRENCY), leases.get("ReservedConcurrentExecutions"));
        ROLES.forEach((id, role) -> expect(problems, id + " " + FunctionSettings.ROLE, role.value(),
                variables(template, id).get(FunctionSettings.ROLE)));
        return problems;
    }

    private static List<String> function(Template template, CodeNames code, String id) {
        return function(template, id, code.handler());
    }

    private static List<String> function(Template template, String id, String handler) {
        List<String> problems = new ArrayList<>();
        Map<String, Object> fn = template.properties(id);
        expect(problems, "Runtime", Map.of("Ref", RUNTIME), fn.get("Runtime"));
        expect(problems, "Handler", handler, fn.get("Handler"));
        expect(problems, "SnapStart", Map.of("ApplyOn", "PublishedVersions"), fn.get("SnapStart"));
        if (!(fn.get("AutoPublishAlias") instanceof String alias) || alias.isEmpty()) {
            problems.add("AutoPublishAlias: SnapStart applies to published versions only, so the API must call an alias");
        }
        if (!fn.containsKey("ReservedConcurrentExecutions")) {
            problems.add("ReservedConcurrentExecutions is missing: one environment holds one slot, so the pool must bound it");
        }
        if (!(fn.get("MemorySize") instanceof Integer memory) || memory < 512 || memory > 10240) {
            problems.add("MemorySize " + fn.get("MemorySize") + ": expected 512 to 10240 MB");
        }
        if (!(fn.get("Timeout") instanceof Integer timeout) || timeout < 1 || timeout > 29) {
            problems.add("Timeout " + fn.get("Timeout") + ": expected 1 to 29 s, below the HTTP API's 30 s");
        }
        expect(problems, "LogFormat", "JSON", at(fn, "LoggingConfig", "LogFormat").orElse(null));
        Optional<String> logGroup = refTo(at(fn, "LoggingConfig", "LogGroup").orElse(null));
        if (logGroup.isEmpty() || !template.resources().containsKey(logGroup.get())
                || !"AWS::Logs::LogGroup".equals(template.resource(logGroup.get()).get("Type"))) {
            problems.add("LoggingConfig.LogGroup must Ref the template's own AWS::Logs::LogGroup");
        } else if (!template.properties(logGroup.get()).containsKey("RetentionInDays")) {
            problems.add("log group " + logGroup.get() + " has no RetentionInDays: logs would be kept (and billed) forever");
        }
        return problems;
    }

    /** The template's CodeUri, relative to the template's folder, must be the built jar. */
    static List<String> codeUri(Template template, Path templateFile, Path functionJar) {
        Object codeUri = template.properties(IDS_FUNCTION).get("CodeUri");
        if (!(codeUri instanceof String path)) {
            return List.of("CodeUri " + codeUri + ": expected the path of the built jar");
        }
        Path resolved = templateFile.getParent().resolve(path).normalize();
        Path expected = functionJar.toAbsolutePath().normalize();
        return resolved.equals(expected) ? List.of()
                : List.of("CodeUri " + path + " is " + resolved + ", but the build makes " + expected
                        + " (snowid.function.jar in infra/pom.xml)");
    }

    // ---------------------------------------------------------------------------------------
    // Environment variables

    static List<String> environment(Template template, CodeNames code) {
        List<String> problems = new ArrayList<>();
        for (String id : ROLES.keySet()) {
            environment(template, code, id).forEach(problem -> problems.add(id + ": " + problem));
        }
        return problems;
    }

    private static List<String> environment(Template template, CodeNames code, String id) {
        List<String> problems = new ArrayList<>();
        Map<String, Object> variables = variables(template, id);
        Set<String> expected = new TreeSet<>(code.functionVariables());
        expected.removeAll(code.localOnlyVariables());
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(variables.keySet());
        if (!missing.isEmpty()) {
            problems.add("FunctionSettings reads " + missing + " but the template does not set them");
        }
        for (String name : variables.keySet()) {
            if (code.localOnlyVariables().contains(name)) {
                problems.add(name + " is for local runs only (a local engine or the local runner); a deployment must not set it");
            } else if (code.runtimeVariables().contains(name) || name.startsWith("AWS_")) {
                problems.add(name + " is set by the Lambda runtime, not the template");
            } else if (!code.functionVariables().contains(name)) {
                problems.add(name + " is not a FunctionSettings name; the function would never read it");
            }
        }
        for (String localOnly : code.localOnlyVariables()) {
            if (!code.functionVariables().contains(localOnly)) {
                problems.add("'" + localOnly + "' is excluded as local-only but FunctionSettings no longer has it");
            }
        }
        template.single(TABLE_TYPE).ifPresent(table -> {
            Object tableVariable = variables.get(firstWithSuffix(code.functionVariables(), "_TABLE"));
            if (!Map.of("Ref", table).equals(tableVariable)) {
                problems.add("the table variable is " + tableVariable + ", expected Ref " + table);
            }
        });
        Object epoch = variables.get(firstWithSuffix(code.functionVariables(), "_EPOCH_MILLIS"));
        if (epoch != null && !String.valueOf(code.epochMillis()).equals(String.valueOf(epoch))) {
            problems.add("epoch " + epoch + " differs from the code's " + code.epochMillis());
        }
        return problems;
    }

    /** The ids function's variables: the one whose environments hold slots. */
    private static Map<String, Object> variables(Template template) {
        return variables(template, IDS_FUNCTION);
    }

    private static Map<String, Object> variables(Template template, String id) {
        return template.resources().containsKey(id)
                ? at(template.properties(id), "Environment", "Variables").map(Template::map).orElse(Map.of()) : Map.of();
    }

    private static String firstWithSuffix(Set<String> names, String suffix) {
        return names.stream().filter(name -> name.endsWith(suffix)).findFirst().orElse("");
    }

    // ---------------------------------------------------------------------------------------
    // IAM: exactly the actions the store calls, on this table; logs into this log group only

    static List<String> iam(Template template, CodeNames code) {
        List<String> problems = new ArrayList<>();
        Optional<String> fnId = Optional.of(IDS_FUNCTION).filter(template.resources()::containsKey);
        Optional<String> tableId = template.single(TABLE_TYPE);
        if (fnId.isEmpty() || tableId.isEmpty()) {
            return List.of("IAM: needs the one function and the one table");
        }
        Map<String, Object> fn = template.properties(fnId.get());
        if (!fn.containsKey("Role")) {
            problems.add("the function has no explicit Role: SAM would attach AWSLambdaBasicExecutionRole (logs on \"*\")");
        }
        if (fn.containsKey("Policies")) {
            problems.add("SAM Policies on the function: keep every permission in the explicit role");
        }
        Object logGroupRef = at(fn, "LoggingConfig", "LogGroup").orElse(null);
        String logGroup = refTo(logGroupRef).orElse("?");
        Object tableArn = Map.of("Fn::GetAtt", List.of(tableId.get(), "Arn"));
        String logStreams = ":log-group:${" + logGroup + "}:log-stream:*";

        Set<String> dynamoDbActions = new LinkedHashSet<>();
        Set<String> registryActions = new LinkedHashSet<>();
        for (Map<String, Object> statement : statements(template, problems)) {
            if (statement.containsKey("NotAction") || statement.containsKey("NotResource")) {
                problems.add("NotAction/NotResource grant everything else: " + statement);
                continue;
            }
            if (!"Allow".equals(statement.get("Effect"))) {
                continue;
            }
            List<String> actions = new ArrayList<>();
            oneOrMany(statement.get("Action")).forEach(action -> actions.add(String.valueOf(action)));
            List<Object> resources = oneOrMany(statement.get("Resource"));
            boolean onRegistry = resources.size() == 1 && isRegistryArn(resources.get(0));
            for (String action : actions) {
                if (action.contains("*")) {
                    problems.add("wildcard action " + action);
                } else if (action.startsWith("dynamodb:")) {
                    (onRegistry ? registryActions : dynamoDbActions).add(action);
                } else if (!LOG_ACTIONS.contains(action)) {
                    problems.add("action " + action + " is not needed by the function");
                }
            }
            boolean dynamoDb = actions.stream().anyMatch(action -> action.startsWith("dynamodb:"));
            boolean logs = !actions.isEmpty() && LOG_ACTIONS.containsAll(actions);
            if (onRegistry) {
                continue; // the claim registry's statement: its own actions, on the registry table of its home region
            }
            if (dynamoDb && !resources.equals(List.of(tableArn))) {
                problems.add("DynamoDB actions " + actions + " on " + resources + ": expected this table's ARN only");
            }
            for (Object resource : resources) {
                String text = resourceText(resource);
                if (!text.contains("*")) {
                    continue;
                }
                boolean ownLogStreams = logs && resource instanceof Map && ((Map<?, ?>) resource).containsKey("Fn::Sub")
                        && text.endsWith(logStreams) && text.indexOf('*') == text.length() - 1;
                if (!ownLogStreams) {
                    problems.add("wildcard resource " + text + " for " + actions);
                }
            }
        }
        if (!dynamoDbActions.equals(code.actionsUsed())) {
            problems.add("DynamoDB actions granted " + dynamoDbActions + " differ from LeaseTableSchema.ACTIONS_USED "
                    + code.actionsUsed());
        }
        if (!registryActions.equals(new LinkedHashSet<>(RegistrySchema.ACTIONS_USED))) {
            problems.add("DynamoDB actions granted on the claim registry " + registryActions + " differ from RegistrySchema.ACTIONS_USED "
                    + RegistrySchema.ACTIONS_USED);
        }
        return problems;
    }

    /** Every parameter a value refers to (Ref and Fn::If branches included). */
    private static Set<String> refsIn(Object value) {
        Set<String> refs = new TreeSet<>();
        collectRefs(value == null ? List.of() : List.of(value), refs);
        return refs;
    }

    /**
     * The registry table's ARN as the template writes it: a Sub of exactly the registry table, by
     * its parameter, in the registry's home region (no wildcard).
     */
    static boolean isRegistryArn(Object resource) {
        if (!(resource instanceof Map<?, ?> sub) || !(sub.get("Fn::Sub") instanceof List<?> parts) || parts.isEmpty()) {
            return false;
        }
        String arn = String.valueOf(parts.get(0));
        return arn.equals("arn:${AWS::Partition}:dynamodb:${Home}:${AWS::AccountId}:table/${RegistryTable}");
    }

    /** Permission statements of every IAM resource (trust policies are not permissions). */
    private static List<Map<String, Object>> statements(Template template, List<String> problems) {
        List<Map<String, Object>> statements = new ArrayList<>();
        template.resources().forEach((id, body) -> {
            Map<String, Object> resource = map(body);
            Object type = resource.get("Type");
            Map<String, Object> properties = map(resource.getOrDefault("Properties", Map.of()));
            List<Object> documents = new ArrayList<>();
            if (id.equals(ManagedInstancesChecks.operatorRole(template))) {
                // Lambda's own, to run the capacity provider's instances; no function runs with it.
                problems.addAll(ManagedInstancesChecks.operatorRoleProblems(template, id, properties));
                return;
            }
            if ("AWS::IAM::Role".equals(type)) {
                if (properties.containsKey("ManagedPolicyArns")) {
                    problems.add(id + " attaches managed policies " + properties.get("ManagedPolicyArns")
                            + ", which this check cannot see into");
                }
                oneOrMany(properties.get("Policies")).forEach(policy -> documents.add(map(policy).get("PolicyDocument")));
            } else if ("AWS::IAM::Policy".equals(type)) {
                documents.add(properties.get("PolicyDocument"));
            } else if ("AWS::IAM::ManagedPolicy".equals(type) && (properties.containsKey("Roles") || properties.containsKey("Users")
                    || properties.containsKey("Groups"))) {
                // Attached in the stack: a permission of someone here. One attached to nothing (the lease
                // clients' policy, an output for workload roles elsewhere) grants nothing in this stack.
                documents.add(properties.get("PolicyDocument"));
            }
            for (Object document : documents) {
                oneOrMany(map(document).get("Statement")).forEach(statement -> statements.add(map(statement)));
            }
        });
        return statements;
    }

    private static String resourceText(Object resource) {
        if (resource instanceof String text) {
            return text;
        }
        if (resource instanceof Map<?, ?> function && function.get("Fn::Sub") instanceof String text) {
            return text;
        }
        return String.valueOf(resource);
    }

    // ---------------------------------------------------------------------------------------
    // HTTP API

    static List<String> routes(Template template) {
        List<String> problems = new ArrayList<>();
        Optional<String> apiId = template.single(HTTP_API_TYPE);
        if (apiId.isEmpty() || !template.resources().keySet().containsAll(ROLES.keySet())) {
            return List.of("expected one " + HTTP_API_TYPE + " in front of the functions " + ROLES.keySet());
        }
        Map<String, Object> body = map(at(template.properties(apiId.get()), "DefinitionBody").orElse(Map.of()));
        Map<String, Object> paths = map(body.getOrDefault("paths", Map.of()));
        Set<String> routes = new TreeSet<>();
        paths.forEach((path, operations) -> map(operations).forEach((method, operation) -> {
            String route = method.toUpperCase() + " " + path;
            routes.add(route);
            Map<String, Object> op = map(operation);
            Object integration = op.get("x-amazon-apigateway-integration");
            expect(problems, route + " integration type", "aws_proxy", at(integration, "type").orElse(null));
            expect(problems, route + " payload format", "2.0", at(integration, "payloadFormatVersion").orElse(null));
            boolean leaseRoute = path.startsWith("/leases");
            // The lease routes reach the lease function alone: a flood of the public routes cannot take its concurrency.
            String alias = "${" + LEASE_FUNCTION + ".Alias}";
            Object uri = at(integration, "uri", "Fn::Sub").orElse("");
            if (!leaseRoute) {
                problems.addAll(ManagedInstancesChecks.idsTargetProblems(route, at(integration, "uri").orElse(null)));
            } else if (!String.valueOf(uri).contains(alias)) {
                problems.add(route + " calls " + uri + ", not the alias " + alias + " (SnapStart runs published versions only; "
                        + "the lease routes go to " + LEASE_FUNCTION + ", the others to " + IDS_FUNCTION + ")");
            }
            Object security = op.get("security");
            boolean idsRoute = path.equals("/ids");
            if (leaseRoute && !iamOrBearerAuthorizer(security, body)) {
                problems.add(route + " must switch on AWS_IAM (SigV4) through a condition, else the " + BEARER_SCHEME
                        + " authorizer, found security " + security);
            }
            if (idsRoute && !iamWhenSwitchedOn(security, body)) {
                problems.add(route + " must switch on AWS_IAM (SigV4) through a condition, found security " + security);
            }
            if (!leaseRoute && !idsRoute && security != null) {
                problems.add(route + " is public, yet has security " + security);
            }
        }));
        if (!routes.equals(new TreeSet<>(ROUTES))) {
            problems.add("routes " + routes + " differ from the HTTP API's (docs/api.md): " + new TreeSet<>(ROUTES));
        }
        for (String fnId : ROLES.keySet()) {
            boolean permitted = template.resourcesOfType("AWS::Lambda::Permission").stream()
                    .map(template::properties)
                    .anyMatch(permission -> (Map.of("Ref", fnId + ".Alias").equals(permission.get("FunctionName"))
                            || fnId.equals(IDS_FUNCTION) && ManagedInstancesChecks.permitsIdsAlias(permission.get("FunctionName")))
                            && "apigateway.amazonaws.com".equals(permission.get("Principal")));
            if (!permitted) {
                problems.add("no AWS::Lambda::Permission lets API Gateway invoke " + fnId + ".Alias");
            }
        }
        return problems;
    }

    /** {@code !If [condition, [{scheme: []}], !Ref AWS::NoValue]}, the scheme being SigV4. */
    private static boolean iamWhenSwitchedOn(Object security, Map<String, Object> body) {
        List<Object> branches = at(security, "Fn::If").map(Template::list).orElse(List.of());
        return branches.size() == 3 && Map.of("Ref", "AWS::NoValue").equals(branches.get(2))
                && "awsSigv4".equals(at(body, "components", "securitySchemes", onlyScheme(branches.get(1)),
                        "x-amazon-apigateway-authtype").orElse(null));
    }

    /** {@code !If [LeaseRoutesUseIam, [{<SigV4>: []}], [{LeaseBearer: []}]]}: no lease route is ever left to the function alone. */
    private static boolean iamOrBearerAuthorizer(Object security, Map<String, Object> body) {
        List<Object> branches = at(security, "Fn::If").map(Template::list).orElse(List.of());
        return branches.size() == 3 && "LeaseRoutesUseIam".equals(branches.get(0))
                && "awsSigv4".equals(at(body, "components", "securitySchemes", onlyScheme(branches.get(1)),
                        "x-amazon-apigateway-authtype").orElse(null))
                && BEARER_SCHEME.equals(onlyScheme(branches.get(2)));
    }

    /** The one scheme of {@code [{scheme: []}]}; "" for anything else. */
    private static String onlyScheme(Object requirements) {
        if (!(requirements instanceof List<?> list) || list.size() != 1 || !(list.get(0) instanceof Map<?, ?> requirement)
                || requirement.size() != 1) {
            return "";
        }
        return String.valueOf(requirement.keySet().iterator().next());
    }

    // ---------------------------------------------------------------------------------------
    // Bearer mode's authorizer: in front of every lease route, on its own concurrency

    /**
     * With {@code LeaseAuth=BEARER} the lease routes are behind a Lambda REQUEST authorizer: the
     * function exists under that condition only, runs {@link CodeNames#AUTHORIZER_HANDLER} on its own
     * reserved concurrency and role (no table access), reads exactly the two secret hashes, and the
     * scheme asks it about the Authorization header (a request without one is refused unasked),
     * caching its simple answer by that header.
     */
    static List<String> authorizer(Template template, CodeNames code) {
        if (!template.resources().containsKey(AUTHORIZER_FUNCTION)) {
            return List.of("no " + AUTHORIZER_FUNCTION + ": in bearer mode every request without the secret would take one of "
                    + LEASE_FUNCTION + "'s environments");
        }
        List<String> problems = new ArrayList<>();
        function(template, AUTHORIZER_FUNCTION, CodeNames.AUTHORIZER_HANDLER).forEach(problem -> problems.add(AUTHORIZER_FUNCTION + ": " + problem));
        Map<String, Object> fn = template.properties(AUTHORIZER_FUNCTION);
        expect(problems, AUTHORIZER_FUNCTION + " Condition", BEARER_CONDITION, template.resource(AUTHORIZER_FUNCTION).get("Condition"));
        expect(problems, BEARER_CONDITION, List.of(Map.of("Ref", "LeaseAuth"), "BEARER"),
                at(template.root(), "Conditions", BEARER_CONDITION, "Fn::Equals").orElse(null));
        expect(problems, AUTHORIZER_FUNCTION + " ReservedConcurrentExecutions (its own)", Map.of("Ref", AUTHORIZER_CONCURRENCY),
                fn.get("ReservedConcurrentExecutions"));
        if (fn.get("Role") == null || fn.get("Role").equals(template.properties(IDS_FUNCTION).get("Role"))) {
            problems.add(AUTHORIZER_FUNCTION + " Role " + fn.get("Role") + ": its own, without the lease table");
        }
        Map<String, Object> variables = variables(template, AUTHORIZER_FUNCTION);
        expect(problems, AUTHORIZER_FUNCTION + " variables", new TreeSet<>(CodeNames.AUTHORIZER_VARIABLES), new TreeSet<>(variables.keySet()));
        for (String hash : CodeNames.AUTHORIZER_VARIABLES) {
            expect(problems, AUTHORIZER_FUNCTION + " " + hash + " (the lease function's)", variables(template, LEASE_FUNCTION).get(hash),
                    variables.get(hash));
        }
        Optional<String> apiId = template.single(HTTP_API_TYPE);
        Map<String, Object> body = apiId.map(id -> map(at(template.properties(id), "DefinitionBody").orElse(Map.of()))).orElse(Map.of());
        List<Object> scheme = at(body, "components", "securitySchemes", BEARER_SCHEME, "Fn::If").map(Template::list).orElse(List.of());
        if (scheme.size() != 3 || !BEARER_CONDITION.equals(scheme.get(0)) || !Map.of("Ref", "AWS::NoValue").equals(scheme.get(2))) {
            problems.add(BEARER_SCHEME + " must be !If [" + BEARER_CONDITION + ", <the authorizer>, !Ref AWS::NoValue], found " + scheme);
            return problems;
        }
        Object authorizer = at(scheme.get(1), "x-amazon-apigateway-authorizer").orElse(Map.of());
        expect(problems, BEARER_SCHEME + " type", "request", at(authorizer, "type").orElse(null));
        expect(problems, BEARER_SCHEME + " identitySource (a request without it is refused unasked)", "$request.header.Authorization",
                at(authorizer, "identitySource").orElse(null));
        expect(problems, BEARER_SCHEME + " payload format", "2.0", at(authorizer, "authorizerPayloadFormatVersion").orElse(null));
        expect(problems, BEARER_SCHEME + " simple responses (the handler's answer)", true, at(authorizer, "enableSimpleResponses").orElse(null));
        if (!(at(authorizer, "authorizerResultTtlInSeconds").orElse(null) instanceof Integer ttl) || ttl < 1 || ttl > 3600) {
            problems.add(BEARER_SCHEME + " authorizerResultTtlInSeconds " + at(authorizer, "authorizerResultTtlInSeconds").orElse(null)
                    + ": 1 to 3600, so that renewals seldom wait on the authorizer");
        }
        if (!String.valueOf(at(authorizer, "authorizerUri", "Fn::Sub").orElse("")).contains("${" + AUTHORIZER_FUNCTION + ".Alias}")) {
            problems.add(BEARER_SCHEME + " calls " + at(authorizer, "authorizerUri").orElse(null) + ", not the alias of " + AUTHORIZER_FUNCTION);
        }
        boolean permitted = template.resourcesOfType("AWS::Lambda::Permission").stream().map(template::properties)
                .anyMatch(permission -> Map.of("Ref", AUTHORIZER_FUNCTION + ".Alias").equals(permission.get("FunctionName"))
                        && "apigateway.amazonaws.com".equals(permission.get("Principal")));
        if (!permitted) {
            problems.add("no AWS::Lambda::Permission lets API Gateway invoke " + AUTHORIZER_FUNCTION + ".Alias");
        }
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // The lease API as a fleet's resource: the split enforced, IAM trusted only behind IAM

    /**
     * The function is told the split the Rules check ({@code SNOWID_AGENT_SLOTS} from AgentSlots)
     * and whether IAM guards its lease routes ({@code SNOWID_LEASE_AUTH} from the parameter that
     * switches the routes' security): else the Rules would check a split nobody enforces, or the
     * function would trust IAM identities the API never verified.
     */
    static List<String> fleet(Template template) {
        List<String> problems = new ArrayList<>();
        for (String id : ROLES.keySet()) {
            Map<String, Object> variables = variables(template, id);
            expect(problems, id + " " + FunctionSettings.AGENT_SLOTS, Map.of("Ref", AGENT_SLOTS), variables.get(FunctionSettings.AGENT_SLOTS));
            expect(problems, id + " " + FunctionSettings.LEASE_AUTH, Map.of("Ref", "LeaseAuth"), variables.get(FunctionSettings.LEASE_AUTH));
        }
        Map<String, Object> declared = map(template.parameters().getOrDefault("LeaseAuth", Map.of()));
        List<String> modes = new ArrayList<>();
        list(declared.getOrDefault("AllowedValues", List.of())).forEach(v -> modes.add(String.valueOf(v).toLowerCase(Locale.ROOT)));
        List<String> known = new ArrayList<>();
        for (LeaseAuthMode mode : LeaseAuthMode.values()) {
            known.add(mode.name().toLowerCase(Locale.ROOT));
        }
        expect(problems, "LeaseAuth's values (the function's modes)", known, modes);
        Object condition = at(template.root(), "Conditions", "LeaseRoutesUseIam", "Fn::Equals").orElse(null);
        expect(problems, "LeaseRoutesUseIam", List.of(Map.of("Ref", "LeaseAuth"), "AWS_IAM"), condition);
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // Stage throttling and the access log

    /** Throttling burst and rate from parameters on the stage; access logs as JSON into a log group with retention. */
    static List<String> stage(Template template) {
        List<String> problems = new ArrayList<>();
        Optional<String> apiId = template.single(HTTP_API_TYPE);
        if (apiId.isEmpty()) {
            return List.of("no HTTP API");
        }
        Map<String, Object> api = template.properties(apiId.get());
        for (String limit : List.of("ThrottlingBurstLimit", "ThrottlingRateLimit")) {
            Optional<String> parameter = refTo(at(api, "DefaultRouteSettings", limit).orElse(null));
            if (parameter.isEmpty() || !template.parameters().containsKey(parameter.get())) {
                problems.add("DefaultRouteSettings." + limit + " must come from a parameter, found "
                        + at(api, "DefaultRouteSettings", limit).orElse(null));
            }
        }
        Object destination = at(api, "AccessLogSettings", "DestinationArn", "Fn::GetAtt").orElse(null);
        List<Object> getAtt = list(destination == null ? List.of() : destination);
        if (getAtt.size() != 2 || !"Arn".equals(getAtt.get(1))) {
            problems.add("AccessLogSettings.DestinationArn must be !GetAtt <log group>.Arn, found " + destination);
        } else {
            String group = String.valueOf(getAtt.get(0));
            Map<String, Object> resource = map(template.resources().getOrDefault(group, Map.of()));
            expect(problems, group + " type", "AWS::Logs::LogGroup", resource.get("Type"));
            if (!map(resource.getOrDefault("Properties", Map.of())).containsKey("RetentionInDays")) {
                problems.add(group + " keeps access logs forever: set RetentionInDays");
            }
        }
        String format = String.valueOf(at(api, "AccessLogSettings", "Format").orElse(""));
        try {
            // JSON is YAML's flow style: snakeyaml reads the line as CloudWatch will store it.
            Object line = new org.yaml.snakeyaml.Yaml().load(format);
            if (!(line instanceof Map<?, ?> fields) || !fields.containsValue("$context.requestId")
                    || !fields.containsValue("$context.status")) {
                problems.add("the access log format must be a JSON object with $context.requestId and $context.status: " + format);
            }
        } catch (RuntimeException e) {
            problems.add("the access log format is not JSON: " + format);
        }
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // The bearer secret: never in the template in plain text

    static List<String> secret(Template template, CodeNames code) {
        List<String> problems = new ArrayList<>();
        for (String variable : code.functionVariables()) {
            if (variable.endsWith("_SHA256")) { // the current and the next secret's hash
                problems.addAll(secret(template, variable));
            }
        }
        return problems;
    }

    private static List<String> secret(Template template, String variable) {
        List<String> problems = new ArrayList<>();
        for (String id : ROLES.keySet()) {
            secret(template, variable, id).forEach(problem -> problems.add(id + ": " + problem));
        }
        if (template.resources().containsKey(AUTHORIZER_FUNCTION)) {
            secret(template, variable, AUTHORIZER_FUNCTION).forEach(problem -> problems.add(AUTHORIZER_FUNCTION + ": " + problem));
        }
        return problems;
    }

    private static List<String> secret(Template template, String variable, String id) {
        Object value = variables(template, id).get(variable);
        if (value instanceof String text && text.startsWith("{{resolve:")) {
            return List.of(); // a dynamic reference: resolved by CloudFormation, never stored here
        }
        Optional<String> parameter = refTo(value);
        if (parameter.isEmpty() || !template.parameters().containsKey(parameter.get())) {
            return List.of(variable + " must come from a NoEcho parameter or a {{resolve:...}} reference, found " + value);
        }
        Map<String, Object> declared = map(template.parameters().get(parameter.get()));
        List<String> problems = new ArrayList<>();
        if (!Boolean.TRUE.equals(declared.get("NoEcho"))) {
            problems.add("parameter " + parameter.get() + " must be NoEcho");
        }
        if (!"".equals(String.valueOf(declared.getOrDefault("Default", "")))) {
            problems.add("parameter " + parameter.get() + " has a default: a secret's hash written into the template");
        }
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // Reserved concurrency <= pool - slots kept for agents, for every accepted parameter set

    /**
     * Evaluates the Rules for every combination of the values of the parameters they (and the
     * pool and concurrency settings) depend on, and reports each accepted combination whose
     * reserved concurrency plus agent slots exceeds the slots of the pool it configures.
     */
    static List<String> concurrencyWithinPool(Template template) {
        List<String> problems = new ArrayList<>();
        // Only the ids function's environments hold slots; the lease function holds none (its role says so).
        if (!template.resources().containsKey(IDS_FUNCTION)) {
            return List.of("no function to bound");
        }
        Map<String, Object> fn = template.properties(IDS_FUNCTION);
        Map<String, Object> variables = variables(template);
        Object concurrency = fn.get("ReservedConcurrentExecutions");
        Object datacenters = variables.get(FunctionSettings.DATACENTERS);
        Object machines = variables.get(FunctionSettings.MACHINES);
        // The secret has no AllowedValues; the rules only care whether it is empty.
        Map<String, List<String>> samples = new LinkedHashMap<>();
        for (String hash : List.of(FunctionSettings.LEASE_SECRET_SHA256, FunctionSettings.LEASE_SECRET_NEXT_SHA256)) {
            refTo(variables.get(hash)).ifPresent(secret -> samples.put(secret, List.of("", "0123456789abcdef".repeat(4))));
        }
        // Nor has the principal list; the rules, too, only care whether it is empty.
        refTo(variables.get(FunctionSettings.LEASE_PRINCIPALS)).ifPresent(principals ->
                samples.put(principals, List.of("", "arn:aws:iam::123456789012:role/app")));
        // The registry's rule only cares whether each is empty.
        for (String registry : List.of(FunctionSettings.REGISTRY_TABLE, FunctionSettings.REGISTRY_REGION)) {
            refsIn(variables.get(registry)).forEach(parameter -> samples.put(parameter, List.of("", "eu-west-1")));
        }
        // The private lease API's endpoint: its rules only care whether it is empty.
        if (template.parameters().containsKey("LeaseVpcEndpointId")) {
            samples.put("LeaseVpcEndpointId", List.of("", "vpce-0123456789abcdef0"));
        }
        // Managed Instances: one value each. The pool's rules never read them (ManagedIdsFunction's MaxExecutionEnvironments is
        // the same parameter as SnowidFunction's ReservedConcurrentExecutions: ManagedInstancesChecks), and enumerating them
        // would multiply this check's time; ManagedInstancesTemplateTest checks their own rule.
        Map<String, List<String>> pinned = Map.of("ManagedInstances", List.of("on"), "ManagedSubnetIds", List.of("subnet-0abc"),
                "ManagedSecurityGroupIds", List.of("sg-0123456789abcdef0"));
        samples.putAll(pinned);
        if (concurrency == null || datacenters == null || machines == null) {
            return List.of("reserved concurrency, SNOWID_DATACENTERS and SNOWID_MACHINES must all be set");
        }
        if (!template.parameters().containsKey(AGENT_SLOTS)) {
            return List.of("no parameter " + AGENT_SLOTS + ": the slots kept for agents must be explicit");
        }
        Set<String> involved = new TreeSet<>();
        collectRefs(template.rules(), involved);
        collectRefs(List.of(concurrency, datacenters, machines, Map.of("Ref", AGENT_SLOTS)), involved);
        involved.retainAll(template.parameters().keySet());

        Map<String, List<String>> space = new LinkedHashMap<>();
        Map<String, String> defaults = new LinkedHashMap<>();
        template.parameters().forEach((name, declaration) -> {
            Map<String, Object> declared = map(declaration);
            defaults.put(name, String.valueOf(declared.getOrDefault("Default", "")));
            if (!involved.contains(name)) {
                return;
            }
            List<String> values = new ArrayList<>();
            if (pinned.containsKey(name)) {
                values.addAll(pinned.get(name));
            } else if (declared.get("AllowedValues") instanceof List<?> allowed) {
                allowed.forEach(value -> values.add(String.valueOf(value)));
            } else if (samples.containsKey(name)) {
                values.addAll(samples.get(name));
            } else {
                problems.add("parameter " + name + " bears on the bound but has no AllowedValues: "
                        + "its values cannot all be checked");
            }
            space.put(name, values);
        });
        if (!problems.isEmpty()) {
            return problems;
        }
        RulesEvaluator rules = new RulesEvaluator(template);
        int[] accepted = {0};
        forEachCombination(space, defaults, values -> {
            if (!rules.violations(values).isEmpty()) {
                return;
            }
            accepted[0]++;
            try {
                int pool = size(resolve(datacenters, values)) * size(resolve(machines, values));
                int environments = Integer.parseInt(resolve(concurrency, values));
                int agents = Integer.parseInt(values.get(AGENT_SLOTS));
                if (environments + agents > pool && problems.size() < 10) {
                    problems.add("accepted: " + values + " -> reserved concurrency " + environments + " + "
                            + agents + " agent slots > " + pool + " slots in the pool");
                }
            } catch (IllegalArgumentException e) {
                problems.add("cannot work out the pool for " + values + ": " + e.getMessage());
            }
        });
        if (accepted[0] == 0) {
            problems.add("the Rules accept no combination of parameter values at all");
        }
        return problems;
    }

    static void forEachCombination(Map<String, List<String>> space, Map<String, String> defaults,
            Consumer<Map<String, String>> action) {
        List<String> names = new ArrayList<>(space.keySet());
        int[] index = new int[names.size()];
        while (true) {
            Map<String, String> values = new LinkedHashMap<>(defaults);
            for (int i = 0; i < names.size(); i++) {
                values.put(names.get(i), space.get(names.get(i)).get(index[i]));
            }
            action.accept(values);
            int i = 0;
            while (i < names.size() && ++index[i] == space.get(names.get(i)).size()) {
                index[i++] = 0;
            }
            if (i == names.size()) {
                return;
            }
        }
    }

    /** A literal, or a Ref to a parameter; anything else cannot be known before deployment. */
    static String resolve(Object expression, Map<String, String> values) {
        if (expression instanceof Map<?, ?> function) {
            Object name = function.get("Ref");
            if (function.size() == 1 && name != null && values.containsKey(name)) {
                return values.get(name);
            }
            throw new IllegalArgumentException(expression + " is neither a literal nor a parameter");
        }
        return String.valueOf(expression);
    }

    /** How many numbers an "a-b" or "a" range holds (the format of SNOWID_DATACENTERS/MACHINES). */
    static int size(String range) {
        int dash = range.indexOf('-');
        int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
        int to = Integer.parseInt(dash < 0 ? range : range.substring(dash + 1));
        if (from < 0 || to > 31 || from > to) {
            throw new IllegalArgumentException("range " + range + " is outside 0-31 or reversed");
        }
        return to - from + 1;
    }

    // ---------------------------------------------------------------------------------------

    private static void collectRefs(Object node, Set<String> names) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                if ("Ref".equals(key) && value instanceof String name) {
                    names.add(name);
                } else {
                    collectRefs(value, names);
                }
            });
        } else if (node instanceof List<?> items) {
            items.forEach(item -> collectRefs(item, names));
        }
    }

    private static Optional<String> refTo(Object value) {
        return value instanceof Map<?, ?> function && function.size() == 1 && function.get("Ref") instanceof String name
                ? Optional.of(name) : Optional.empty();
    }

    private static void walk(Object node, java.util.function.BiConsumer<String, Object> visitor) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((key, value) -> {
                visitor.accept(String.valueOf(key), value);
                walk(value, visitor);
            });
        } else if (node instanceof List<?> items) {
            items.forEach(item -> walk(item, visitor));
        }
    }

    private static void expect(List<String> problems, String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            problems.add(what + ": expected " + expected + ", found " + actual);
        }
    }
}
