package dev.snowid.infra;

import dev.snowid.lambda.api.Route;
import dev.snowid.lambda.telemetry.Dimension;
import dev.snowid.lambda.telemetry.LeaseHolder;
import dev.snowid.lambda.telemetry.Metric;
import dev.snowid.lambda.telemetry.PoolPart;
import dev.snowid.protocol.ErrorCode;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The metrics the function emits, read from the code: each metric's dimension names, and the
 * values the code can give each dimension (the service's value is the deployment's).
 *
 * @param dimensionsOf  metric name → its dimension names, Service first
 * @param valuesOf      dimension name → every value the code emits for it
 * @param serviceKey    the dimension whose value is the deployment's service name
 * @param splitParts    the pool parts of a deployment that splits the pool (sets {@code SNOWID_AGENT_SLOTS}); each needs an occupancy alarm
 * @param sharedParts   likewise, for a deployment that does not
 */
record MetricNames(Map<String, List<String>> dimensionsOf, Map<String, Set<String>> valuesOf, String serviceKey,
                   Set<String> splitParts, Set<String> sharedParts) {

    static MetricNames fromCode() {
        Map<String, List<String>> dimensionsOf = new LinkedHashMap<>();
        for (Metric metric : Metric.values()) {
            dimensionsOf.put(metric.metricName(), metric.dimensions().stream().map(Dimension::key).toList());
        }
        Map<String, Set<String>> valuesOf = new LinkedHashMap<>();
        Set<String> routes = new LinkedHashSet<>();
        for (Route route : Route.values()) {
            if (route.metered()) {
                routes.add(route.template());
            }
        }
        valuesOf.put(Dimension.ROUTE.key(), routes);
        Set<String> codes = new LinkedHashSet<>();
        for (ErrorCode code : ErrorCode.values()) {
            codes.add(code.code());
        }
        valuesOf.put(Dimension.ERROR_CODE.key(), codes);
        Set<String> holders = new LinkedHashSet<>();
        for (LeaseHolder holder : LeaseHolder.values()) {
            holders.add(holder.value());
        }
        valuesOf.put(Dimension.HOLDER.key(), holders);
        Set<String> parts = new LinkedHashSet<>();
        for (PoolPart part : PoolPart.values()) {
            parts.add(part.value());
        }
        valuesOf.put(Dimension.PART.key(), parts);
        return new MetricNames(dimensionsOf, valuesOf, Dimension.SERVICE.key(), values(PoolPart.of(true)), values(PoolPart.of(false)));
    }

    /** The pool parts a deployment has, split or not. */
    Set<String> poolParts(boolean split) {
        return split ? splitParts : sharedParts;
    }

    /** The same names, with one more pool part: a pool split further that the template has not followed. */
    MetricNames withPoolPart(String part) {
        Map<String, Set<String>> values = new LinkedHashMap<>(valuesOf);
        Set<String> parts = new LinkedHashSet<>(values.get(Dimension.PART.key()));
        parts.add(part);
        values.put(Dimension.PART.key(), parts);
        Set<String> split = new LinkedHashSet<>(splitParts);
        split.add(part);
        return new MetricNames(dimensionsOf, values, serviceKey, split, sharedParts);
    }

    private static Set<String> values(List<PoolPart> parts) {
        Set<String> values = new LinkedHashSet<>();
        parts.forEach(part -> values.add(part.value()));
        return values;
    }
}
