package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * ManagedInstances=on: the public routes' function of its own, ManagedIdsFunction, on a capacity
 * provider, in place of SnowidFunction (SAM cannot add or remove a capacity provider on an
 * existing function, so the switch replaces one function with the other). moto does not know
 * the capacity provider's type; these checks and cfn-lint (TemplateLintTest) do.
 */
final class ManagedInstancesChecks {

    static final String FUNCTION = "ManagedIdsFunction";
    static final String CONDITION_ON = "ManagedInstancesOn";
    static final String CONDITION_OFF = "ManagedInstancesOff";
    static final String CAPACITY_PROVIDER = "CapacityProvider";
    /** Lambda's floor for a function on Managed Instances. */
    static final int MIN_MEMORY_MB = 2048;

    private ManagedInstancesChecks() {
    }

    static List<String> all(Template template) {
        List<String> problems = new ArrayList<>();
        if (!template.resources().containsKey(FUNCTION)) {
            return List.of("no " + FUNCTION + ": ManagedInstances=on has no function to run");
        }
        expect(problems, FUNCTION + " Condition", CONDITION_ON, template.resource(FUNCTION).get("Condition"));
        expect(problems, TemplateChecks.IDS_FUNCTION + " Condition (never both: each environment of either holds a slot)",
                CONDITION_OFF, template.resource(TemplateChecks.IDS_FUNCTION).get("Condition"));
        expect(problems, CAPACITY_PROVIDER + " Condition", CONDITION_ON, template.resource(CAPACITY_PROVIDER).get("Condition"));
        Map<String, Object> managed = template.properties(FUNCTION);
        Map<String, Object> ids = template.properties(TemplateChecks.IDS_FUNCTION);
        for (String same : List.of("CodeUri", "Handler", "Runtime", "Architectures", "Role", "Policies", "LoggingConfig", "Timeout",
                "Environment", "AutoPublishAlias")) {
            expect(problems, FUNCTION + " " + same + " (as " + TemplateChecks.IDS_FUNCTION + "'s)", ids.get(same), managed.get(same));
        }
        if (!(managed.get("MemorySize") instanceof Integer memory) || memory < MIN_MEMORY_MB) {
            problems.add(FUNCTION + " MemorySize " + managed.get("MemorySize") + ": Managed Instances need at least " + MIN_MEMORY_MB + " MB");
        }
        // One environment holds one slot whatever its concurrency: the pool bounds environments, as ReservedConcurrency does.
        expect(problems, FUNCTION + " MaxExecutionEnvironments (bounded by the pool's Rules)", ids.get("ReservedConcurrentExecutions"),
                at(managed, "FunctionScalingConfig", "MaxExecutionEnvironments").orElse(null));
        expect(problems, FUNCTION + " capacity provider", Map.of("Fn::GetAtt", List.of(CAPACITY_PROVIDER, "Arn")),
                normalisedGetAtt(at(managed, "CapacityProviderConfig", "Arn").orElse(null)));
        for (String absent : List.of("SnapStart", "ReservedConcurrentExecutions", "ProvisionedConcurrencyConfig", "VpcConfig")) {
            if (managed.containsKey(absent)) {
                problems.add(FUNCTION + " has " + absent + ", which Managed Instances do not take");
            }
        }
        Map<String, Object> provider = template.properties(CAPACITY_PROVIDER);
        for (String required : List.of("VpcConfig", "PermissionsConfig")) {
            if (!provider.containsKey(required)) {
                problems.add(CAPACITY_PROVIDER + " lacks " + required);
            }
        }
        return problems;
    }

    /** The ids routes' target: {@code !If [ManagedInstancesOn, <ManagedIdsFunction's>, <SnowidFunction's>]}, each a Sub naming its alias. */
    static List<String> idsTargetProblems(String route, Object uri) {
        List<Object> branches = at(uri, "Fn::If").map(Template::list).orElse(List.of());
        if (branches.size() != 3 || !CONDITION_ON.equals(branches.get(0))
                || !String.valueOf(at(branches.get(1), "Fn::Sub").orElse("")).contains("${" + FUNCTION + ".Alias}")
                || !String.valueOf(at(branches.get(2), "Fn::Sub").orElse("")).contains("${" + TemplateChecks.IDS_FUNCTION + ".Alias}")) {
            return List.of(route + " calls " + uri + ", not !If [" + CONDITION_ON + ", the alias of " + FUNCTION + ", the alias of "
                    + TemplateChecks.IDS_FUNCTION + "] (SnapStart runs published versions only)");
        }
        return List.of();
    }

    /** A permission's FunctionName for the ids routes: whichever function the condition deploys, by its alias. */
    static boolean permitsIdsAlias(Object functionName) {
        return Map.of("Fn::If", List.of(CONDITION_ON, Map.of("Ref", FUNCTION + ".Alias"), Map.of("Ref", TemplateChecks.IDS_FUNCTION + ".Alias")))
                .equals(functionName);
    }

    /** The role the capacity provider lets Lambda assume to manage its instances, or null. */
    static String operatorRole(Template template) {
        if (!template.resources().containsKey(CAPACITY_PROVIDER)) {
            return null;
        }
        Object arn = normalisedGetAtt(at(template.properties(CAPACITY_PROVIDER), "PermissionsConfig", "CapacityProviderOperatorRoleArn")
                .orElse(null));
        return at(arn, "Fn::GetAtt").map(Template::list).map(getAtt -> String.valueOf(getAtt.get(0))).orElse(null);
    }

    /** Only AWS's policy for the operator, under the option's condition, trusted by Lambda, and no function's role. */
    static List<String> operatorRoleProblems(Template template, String id, Map<String, Object> properties) {
        List<String> problems = new ArrayList<>();
        expect(problems, id + " Condition", CONDITION_ON, template.resource(id).get("Condition"));
        expect(problems, id + " ManagedPolicyArns (AWS's policy for the operator and nothing else)",
                List.of(Map.of("Fn::Sub", "arn:${AWS::Partition}:iam::aws:policy/AWSLambdaManagedEC2ResourceOperator")),
                properties.get("ManagedPolicyArns"));
        if (properties.containsKey("Policies")) {
            problems.add(id + " has inline policies: the operator role holds AWS's policy only");
        }
        template.resourcesOfType(TemplateChecks.FUNCTION_TYPE).forEach(function -> {
            if (String.valueOf(template.properties(function).get("Role")).contains(id)) {
                problems.add(function + " runs with " + id + ", the capacity provider's operator role");
            }
        });
        return problems;
    }

    /** {@code !GetAtt A.B} and {@code Fn::GetAtt: [A, B]} alike. */
    private static Object normalisedGetAtt(Object value) {
        Object getAtt = at(value, "Fn::GetAtt").orElse(null);
        if (getAtt instanceof String dotted && dotted.contains(".")) {
            return Map.of("Fn::GetAtt", List.of(dotted.substring(0, dotted.indexOf('.')), dotted.substring(dotted.indexOf('.') + 1)));
        }
        return getAtt == null ? value : Map.of("Fn::GetAtt", list(getAtt));
    }

    private static void expect(List<String> problems, String what, Object expected, Object actual) {
        if (!Objects.equals(expected, actual)) {
            problems.add(what + ": expected " + expected + ", found " + actual);
        }
    }
}
