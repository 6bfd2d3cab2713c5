package dev.snowid.lambda;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/**
 * One CloudWatch embedded-metric-format record as CloudWatch reads it: checked against the
 * format's rules on reading (every metric a directive names has a value at the root, every
 * dimension a string value, units from CloudWatch's list), so a test fails on a record
 * CloudWatch would drop.
 */
record EmfRecord(String namespace, long timestamp, Map<String, String> units, Map<String, List<String>> dimensionsOf,
                 Map<String, String> dimensionValues, Map<String, List<Double>> values) {

    private static final Set<String> UNITS = Set.of("Seconds", "Microseconds", "Milliseconds", "Bytes", "Kilobytes", "Megabytes",
            "Gigabytes", "Terabytes", "Bits", "Kilobits", "Megabits", "Gigabits", "Terabits", "Percent", "Count", "Bytes/Second",
            "Kilobytes/Second", "Megabytes/Second", "Gigabytes/Second", "Terabytes/Second", "Bits/Second", "Kilobits/Second",
            "Megabits/Second", "Gigabits/Second", "Terabits/Second", "Count/Second", "None");

    static EmfRecord read(JsonNode record) {
        JsonNode aws = record.field("_aws").orElseThrow(() -> new AssertionError("no _aws: " + record));
        long timestamp = Long.parseLong(aws.field("Timestamp").orElseThrow(() -> new AssertionError("no Timestamp")).asNumber());
        List<JsonNode> directives = aws.field("CloudWatchMetrics").orElseThrow(() -> new AssertionError("no CloudWatchMetrics")).asArray();
        String namespace = null;
        Map<String, String> units = new LinkedHashMap<>();
        Map<String, List<String>> dimensionsOf = new LinkedHashMap<>();
        Map<String, String> dimensionValues = new LinkedHashMap<>();
        Map<String, List<Double>> values = new LinkedHashMap<>();
        for (JsonNode directive : directives) {
            String ns = directive.field("Namespace").orElseThrow().asString();
            if (namespace != null && !namespace.equals(ns)) {
                throw new AssertionError("two namespaces in one record: " + record);
            }
            namespace = ns;
            List<JsonNode> sets = directive.field("Dimensions").orElseThrow().asArray();
            if (sets.size() != 1) {
                throw new AssertionError("expected one dimension set per directive: " + directive);
            }
            List<String> dimensions = new ArrayList<>();
            for (JsonNode name : sets.get(0).asArray()) {
                String key = name.asString();
                dimensions.add(key);
                JsonNode value = record.field(key).orElseThrow(() -> new AssertionError("dimension " + key + " has no value: " + record));
                if (!value.isString() || value.asString().isEmpty()) {
                    throw new AssertionError("dimension " + key + " must be a non-empty string: " + record);
                }
                dimensionValues.put(key, value.asString());
            }
            for (JsonNode metric : directive.field("Metrics").orElseThrow().asArray()) {
                String name = metric.field("Name").orElseThrow().asString();
                String unit = metric.field("Unit").orElseThrow(() -> new AssertionError(name + " has no unit")).asString();
                if (!UNITS.contains(unit)) {
                    throw new AssertionError(name + ": unit " + unit + " is not CloudWatch's");
                }
                if (units.put(name, unit) != null) {
                    throw new AssertionError(name + " defined twice: " + record);
                }
                dimensionsOf.put(name, dimensions);
                JsonNode value = record.field(name).orElseThrow(() -> new AssertionError("metric " + name + " has no value: " + record));
                List<Double> numbers = new ArrayList<>();
                for (JsonNode number : value.isArray() ? value.asArray() : List.of(value)) {
                    if (!number.isNumber()) {
                        throw new AssertionError("metric " + name + " must be a number or an array of numbers: " + record);
                    }
                    numbers.add(Double.parseDouble(number.asNumber()));
                }
                values.put(name, numbers);
            }
        }
        return new EmfRecord(namespace, timestamp, units, dimensionsOf, dimensionValues, values);
    }

    boolean has(String metric) {
        return values.containsKey(metric);
    }

    double value(String metric) {
        List<Double> all = values.getOrDefault(metric, List.of());
        if (all.size() != 1) {
            throw new AssertionError(metric + ": expected one value, found " + all + " in " + this);
        }
        return all.get(0);
    }

    Optional<String> dimension(String key) {
        return Optional.ofNullable(dimensionValues.get(key));
    }
}
