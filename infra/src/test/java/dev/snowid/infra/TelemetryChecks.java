package dev.snowid.infra;

import static dev.snowid.infra.Template.at;
import static dev.snowid.infra.Template.list;
import static dev.snowid.infra.Template.map;

import dev.snowid.lambda.settings.FunctionSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The template's alarms and dashboard watch what the function emits: every metric they name is
 * one of {@code dev.snowid.lambda.telemetry.Metric}, in the function's namespace, with exactly
 * its dimensions, the function's own service name, and dimension values the code can emit. A
 * name that drifts would give an alarm that never fires and a dashboard that stays empty, with
 * no error anywhere; this is where it shows.
 */
final class TelemetryChecks {

    static final String ALARM_TYPE = "AWS::CloudWatch::Alarm";
    static final String DASHBOARD_TYPE = "AWS::CloudWatch::Dashboard";
    static final String TOPIC_TYPE = "AWS::SNS::Topic";
    /** The 503 codes that mean "no ID for a client" for a reason an operator must act on. */
    static final List<String> ALARMED_CODES = List.of("no_free_slot", "store_unavailable", "clock_skew", "block_not_claimed");
    static final double OCCUPANCY_ALARM_PERCENT = 90;

    private static final Pattern PLACEHOLDER = Pattern.compile("^\\$\\{([^}]+)}$");

    private TelemetryChecks() {
    }

    static List<String> all(Template template, MetricNames names) {
        List<String> problems = new ArrayList<>();
        problems.addAll(alarms(template, names));
        problems.addAll(requiredAlarms(template, names));
        problems.addAll(dashboard(template, names));
        return problems;
    }

    // ---------------------------------------------------------------------------------------
    // Alarms

    /** Each alarm's metrics (one, or the MetricStats of a math alarm) are the function's; each can be switched off and notifies a topic. */
    static List<String> alarms(Template template, MetricNames names) {
        List<String> problems = new ArrayList<>();
        Deployment deployment = Deployment.of(template);
        for (String id : template.resourcesOfType(ALARM_TYPE)) {
            Map<String, Object> alarm = template.properties(id);
            for (Watched metric : watched(id, alarm)) {
                problems.addAll(check(metric, deployment, names));
            }
            if (!template.resource(id).containsKey("Condition")) {
                problems.add(id + " has no Condition: alarms must be possible to switch off (parameter Alarms)");
            }
            List<Object> actions = Template.oneOrMany(alarm.get("AlarmActions"));
            boolean notifies = actions.stream().anyMatch(action -> at(action, "Ref").map(String::valueOf)
                    .filter(ref -> template.resources().containsKey(ref) && TOPIC_TYPE.equals(template.resource(ref).get("Type")))
                    .isPresent());
            if (!notifies) {
                problems.add(id + " notifies no SNS topic of the template: AlarmActions " + actions);
            }
        }
        return problems;
    }

    /** The alarms an operator needs before IDs stop: a nearly full pool (each part), refused IDs, lost leases, 5xx, p99 latency. */
    static List<String> requiredAlarms(Template template, MetricNames names) {
        List<String> problems = new ArrayList<>();
        List<Watched> all = new ArrayList<>();
        Map<Watched, Map<String, Object>> alarmOf = new LinkedHashMap<>();
        for (String id : template.resourcesOfType(ALARM_TYPE)) {
            for (Watched metric : watched(id, template.properties(id))) {
                all.add(metric);
                alarmOf.put(metric, template.properties(id));
            }
        }
        // The template tells the function how to split the pool, or does not: the parts follow.
        boolean split = Deployment.of(template).splitsThePool();
        for (String part : names.poolParts(split)) {
            boolean covered = all.stream().anyMatch(w -> w.name().equals("PoolOccupancy") && part.equals(w.dimensions().get("Part"))
                    && firesAtOrBelow(alarmOf.get(w), OCCUPANCY_ALARM_PERCENT));
            if (!covered) {
                problems.add("no alarm on PoolOccupancy of pool part '" + part + "' at " + (int) OCCUPANCY_ALARM_PERCENT + " % or less");
            }
        }
        for (String code : ALARMED_CODES) {
            if (all.stream().noneMatch(w -> w.name().equals("Errors") && code.equals(w.dimensions().get("ErrorCode")))) {
                problems.add("no alarm on Errors with ErrorCode " + code);
            }
        }
        for (String holder : names.valuesOf().get("Holder")) {
            if (all.stream().noneMatch(w -> w.name().equals("LeaseLosses") && holder.equals(w.dimensions().get("Holder")))) {
                problems.add("no alarm on LeaseLosses of Holder " + holder);
            }
        }
        if (all.stream().noneMatch(w -> w.name().equals("ServerErrors"))) {
            problems.add("no alarm on ServerErrors (5xx)");
        }
        if (all.stream().noneMatch(w -> w.name().equals("Latency") && "p99".equals(w.statistic()))) {
            problems.add("no alarm on the p99 of Latency");
        }
        return problems;
    }

    private static boolean firesAtOrBelow(Map<String, Object> alarm, double percent) {
        Object threshold = alarm.get("Threshold");
        String comparison = String.valueOf(alarm.get("ComparisonOperator"));
        if (!(threshold instanceof Number number)) {
            return false;
        }
        return comparison.equals("GreaterThanOrEqualToThreshold") && number.doubleValue() <= percent
                || comparison.equals("GreaterThanThreshold") && number.doubleValue() < percent;
    }

    /** One metric an alarm or a widget watches, as the template names it (values are template expressions). */
    record Watched(String where, Object namespace, String name, Map<String, Object> dimensions, String statistic) {
    }

    private static List<Watched> watched(String id, Map<String, Object> alarm) {
        List<Watched> metrics = new ArrayList<>();
        if (alarm.containsKey("MetricName")) {
            Object statistic = alarm.getOrDefault("ExtendedStatistic", alarm.get("Statistic"));
            metrics.add(new Watched(id, alarm.get("Namespace"), String.valueOf(alarm.get("MetricName")),
                    dimensions(alarm.get("Dimensions")), String.valueOf(statistic)));
        }
        for (Object query : Template.oneOrMany(alarm.get("Metrics"))) {
            Optional<Object> metric = at(query, "MetricStat", "Metric");
            if (metric.isPresent()) {
                Map<String, Object> m = map(metric.get());
                metrics.add(new Watched(id + "." + at(query, "Id").orElse("?"), m.get("Namespace"), String.valueOf(m.get("MetricName")),
                        dimensions(m.get("Dimensions")), String.valueOf(at(query, "MetricStat", "Stat").orElse(""))));
            }
        }
        return metrics;
    }

    private static Map<String, Object> dimensions(Object list) {
        Map<String, Object> dimensions = new LinkedHashMap<>();
        for (Object dimension : Template.oneOrMany(list)) {
            dimensions.put(String.valueOf(map(dimension).get("Name")), map(dimension).get("Value"));
        }
        return dimensions;
    }

    // ---------------------------------------------------------------------------------------
    // The dashboard

    /** Every metric row of every widget: resolved against the body's Fn::Sub variables, then checked like an alarm's. */
    static List<String> dashboard(Template template, MetricNames names) {
        List<String> problems = new ArrayList<>();
        Deployment deployment = Deployment.of(template);
        List<String> dashboards = template.resourcesOfType(DASHBOARD_TYPE);
        if (dashboards.isEmpty()) {
            return List.of("no " + DASHBOARD_TYPE + ": operators need IDs issued, occupancy, errors and latency on one screen");
        }
        for (String id : dashboards) {
            if (!template.resource(id).containsKey("Condition")) {
                problems.add(id + " has no Condition: the dashboard must be possible to switch off (parameter Dashboard)");
            }
            Object body = template.properties(id).get("DashboardBody");
            List<Object> sub = at(body, "Fn::Sub").map(s -> s instanceof List<?> l ? list(l) : List.<Object>of(s, Map.of()))
                    .orElse(List.of());
            if (sub.size() != 2 || !(sub.get(0) instanceof String text)) {
                problems.add(id + ": DashboardBody must be !Sub of the JSON text (with variables), found " + body);
                continue;
            }
            Map<String, Object> variables = map(sub.get(1));
            Map<String, Object> json;
            try {
                json = map(CloudFormationYaml.parse(text.replace("${AWS::Region}", "us-east-1")));
            } catch (RuntimeException e) {
                problems.add(id + ": DashboardBody is not JSON: " + e.getMessage());
                continue;
            }
            Set<String> shown = new LinkedHashSet<>();
            int index = 0;
            for (Object widget : list(json.getOrDefault("widgets", List.of()))) {
                index++;
                List<Object> previous = List.of();
                for (Object row : list(at(widget, "properties", "metrics").orElse(List.of()))) {
                    List<Object> cells = new ArrayList<>(list(row));
                    Map<?, ?> options = cells.isEmpty() || !(cells.get(cells.size() - 1) instanceof Map<?, ?> o) ? null : o;
                    if (options != null) {
                        cells.remove(cells.size() - 1);
                    }
                    if (cells.isEmpty()) {
                        continue; // a math expression row
                    }
                    for (int i = 0; i < cells.size(); i++) {
                        if (".".equals(cells.get(i)) && i < previous.size()) {
                            cells.set(i, previous.get(i)); // the console's "same as the row above"
                        }
                    }
                    previous = cells;
                    String where = id + " widget " + index + " (" + at(widget, "properties", "title").orElse("") + ")";
                    if (cells.size() < 2 || cells.size() % 2 != 0) {
                        problems.add(where + ": metric row " + row + " is not [namespace, name, dimension, value, ...]");
                        continue;
                    }
                    Map<String, Object> dimensions = new LinkedHashMap<>();
                    for (int i = 2; i < cells.size(); i += 2) {
                        dimensions.put(String.valueOf(cells.get(i)), resolve(cells.get(i + 1), variables));
                    }
                    String statistic = options != null && options.get("stat") != null ? String.valueOf(options.get("stat"))
                            : String.valueOf(at(widget, "properties", "stat").orElse(""));
                    Watched metric = new Watched(where, resolve(cells.get(0), variables), String.valueOf(cells.get(1)), dimensions,
                            statistic);
                    problems.addAll(check(metric, deployment, names));
                    shown.add(metric.name());
                }
            }
            for (String needed : List.of("IdsIssued", "PoolOccupancy", "Errors", "Latency")) {
                if (!shown.contains(needed)) {
                    problems.add(id + " does not show " + needed);
                }
            }
        }
        return problems;
    }

    /** {@code ${Name}}: the Fn::Sub variable of that name, else a reference to the parameter or resource; else the text itself. */
    private static Object resolve(Object cell, Map<String, Object> variables) {
        if (cell instanceof String text) {
            Matcher placeholder = PLACEHOLDER.matcher(text);
            if (placeholder.matches()) {
                String name = placeholder.group(1);
                return variables.containsKey(name) ? variables.get(name) : Map.of("Ref", name);
            }
        }
        return cell;
    }

    // ---------------------------------------------------------------------------------------

    /** The namespace and service name the deployed function uses: its environment variables. */
    private record Deployment(Object namespace, Object service, boolean splitsThePool) {
        static Deployment of(Template template) {
            // Both functions report under these (the template gives them the same); the ids function's are read.
            Map<String, Object> variables = Optional.of(TemplateChecks.IDS_FUNCTION).filter(template.resources()::containsKey)
                    .flatMap(id -> at(template.properties(id), "Environment", "Variables")).map(Template::map).orElse(Map.of());
            return new Deployment(variables.get(FunctionSettings.METRICS_NAMESPACE), variables.get(FunctionSettings.SERVICE),
                    variables.containsKey(FunctionSettings.AGENT_SLOTS));
        }
    }

    private static List<String> check(Watched metric, Deployment deployment, MetricNames names) {
        List<String> problems = new ArrayList<>();
        List<String> expected = names.dimensionsOf().get(metric.name());
        if (expected == null) {
            return List.of(metric.where() + " watches " + metric.name() + ", which the function does not emit; it emits "
                    + names.dimensionsOf().keySet());
        }
        if (deployment.namespace() == null || !deployment.namespace().equals(metric.namespace())) {
            problems.add(metric.where() + ": namespace " + metric.namespace() + " is not the function's "
                    + FunctionSettings.METRICS_NAMESPACE + " (" + deployment.namespace() + ")");
        }
        if (!new LinkedHashSet<>(expected).equals(metric.dimensions().keySet())) {
            problems.add(metric.where() + ": " + metric.name() + " with dimensions " + metric.dimensions().keySet()
                    + ", but the function emits it with " + expected + " (CloudWatch matches the exact set)");
        }
        metric.dimensions().forEach((key, value) -> {
            if (key.equals(names.serviceKey())) {
                if (!Objects.equals(deployment.service(), value)) {
                    problems.add(metric.where() + ": " + key + " is " + value + ", not the function's " + FunctionSettings.SERVICE
                            + " (" + deployment.service() + ")");
                }
            } else if (names.valuesOf().containsKey(key) && !names.valuesOf().get(key).contains(value)) {
                problems.add(metric.where() + ": " + metric.name() + " " + key + "=" + value + " is never emitted; the code emits "
                        + names.valuesOf().get(key));
            }
        });
        return problems;
    }
}
