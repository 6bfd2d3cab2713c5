package dev.snowid.lambda.telemetry;

import dev.snowid.protocol.json.JsonWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One CloudWatch embedded-metric-format record: one JSON object on one line, with the metric
 * values and dimension values at its root and, under {@code _aws}, one directive per dimension
 * set naming the metrics that use it. CloudWatch Logs turns it into metrics; no API call, no
 * permission beyond writing the log.
 *
 * <p>A record holds one value per dimension, so what needs another value of one (a second pool
 * part, say) goes into a record of its own.
 */
public final class MetricsRecord {

    private final String namespace;
    private final long timestampMillis;
    private final Map<Dimension, String> dimensions = new EnumMap<>(Dimension.class);
    private final Map<Metric, String> values = new EnumMap<>(Metric.class);

    /**
     * @param service the value of {@link Dimension#SERVICE}, which every metric has
     */
    public MetricsRecord(String namespace, String service, long timestampMillis) {
        this.namespace = namespace;
        this.timestampMillis = timestampMillis;
        dimensions.put(Dimension.SERVICE, service);
    }

    public MetricsRecord dimension(Dimension dimension, String value) {
        dimensions.put(dimension, value);
        return this;
    }

    public MetricsRecord count(Metric metric, long count) {
        return put(metric, Long.toString(count));
    }

    /** Several values of one metric in one record (EMF takes an array; statistics see each value). */
    public MetricsRecord counts(Metric metric, List<Integer> counts) {
        StringBuilder array = new StringBuilder().append('[');
        for (int i = 0; i < counts.size(); i++) {
            array.append(i == 0 ? "" : ",").append(counts.get(i));
        }
        return put(metric, array.append(']').toString());
    }

    /** A value with a fraction, e.g. a latency: three decimals (µs for milliseconds) are plenty. */
    public MetricsRecord value(Metric metric, double value) {
        return put(metric, Double.toString(Math.round(value * 1_000.0) / 1_000.0));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The record as one line of JSON (no line break). */
    public String toJson() {
        // Grouped by dimension set: one directive each, in the order of the enum.
        Map<List<Dimension>, List<Metric>> directives = new LinkedHashMap<>();
        values.keySet().forEach(metric -> directives.computeIfAbsent(metric.dimensions(), d -> new ArrayList<>()).add(metric));
        JsonWriter record = new JsonWriter(512);
        record.object("_aws").field("Timestamp", timestampMillis).array("CloudWatchMetrics");
        directives.forEach((dimensionSet, metrics) -> {
            record.objectElement().field("Namespace", namespace).array("Dimensions").arrayElement();
            dimensionSet.forEach(dimension -> record.element(dimension.key()));
            record.close().close().array("Metrics");
            metrics.forEach(metric -> record.objectElement().field("Name", metric.metricName())
                    .field("Unit", metric.unit().cloudWatchName()).close());
            record.close().close();
        });
        record.close().close();
        dimensions.forEach((dimension, value) -> record.field(dimension.key(), value));
        values.forEach((metric, value) -> record.rawField(metric.metricName(), value));
        return record.end();
    }

    private MetricsRecord put(Metric metric, String value) {
        for (Dimension dimension : metric.dimensions()) {
            if (!dimensions.containsKey(dimension)) {
                // A programming error: CloudWatch would drop the metric without a word.
                throw new IllegalStateException(metric + " needs the dimension " + dimension + " in the same record");
            }
        }
        values.put(metric, value);
        return this;
    }
}
