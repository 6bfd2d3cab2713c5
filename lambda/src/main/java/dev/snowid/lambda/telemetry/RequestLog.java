package dev.snowid.lambda.telemetry;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import dev.snowid.internal.ProblemCode;
import dev.snowid.lambda.api.RequestOutcome;
import dev.snowid.lambda.api.Route;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.ErrorCode;
import dev.snowid.protocol.LeaseAudit;
import java.io.PrintStream;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The function's log and metrics. One JSON line per request, in the field names of Powertools
 * for AWS Lambda, through the Lambda runtime's logger: so the function's JSON log format and its
 * log-level filtering apply (the bytes are passed as they are; the runtime does not wrap a line
 * that is JSON already). With {@value FunctionSettings#METRICS}={@code emf}, the request's metrics
 * as CloudWatch embedded-metric-format records on stdout, never filtered by log level (as
 * Powertools Metrics does: a log level turned up must not make the alarms blind).
 */
public final class RequestLog {

    /** The field of a warning's code ({@code docs/troubleshooting.md}). */
    public static final String WARNING_CODE = "warning_code";

    private final LambdaLogger logger;
    private final PrintStream metricsOut;
    private final boolean emf;
    private final String service;
    private final String namespace;
    private final LongSupplier clock;

    public RequestLog(LambdaLogger logger, PrintStream metricsOut, FunctionSettings settings, LongSupplier clock) {
        this.logger = logger;
        this.metricsOut = metricsOut;
        this.emf = settings.metrics() == FunctionSettings.Metrics.EMF;
        this.service = settings.service();
        this.namespace = settings.metricsNamespace();
        this.clock = clock;
    }

    /** The request's line, and its metrics: what the API answered ({@code outcome}) and what it did with leases. */
    public void request(RequestOutcome outcome, LeaseActivity leases, long latencyNanos, Context context, boolean coldStart) {
        long now = clock.getAsLong();
        double latencyMillis = latencyNanos / 1_000_000.0;
        int status = outcome.status();
        String method = outcome.method() == null ? "?" : outcome.method();
        LogLine line = LogLine.of(level(status), now, method + " " + outcome.route().template() + " " + status, service)
                .invocation(context, coldStart);
        if (context == null && outcome.requestId() != null) {
            line.field("function_request_id", outcome.requestId());
        }
        line.field("route", outcome.route().template()).field("method", method).field("status", status)
                .field("latency_ms", latencyMillis);
        if (outcome.slot() != null) {
            line.field("slot", outcome.slot().toString());
        }
        if (outcome.idsIssued() > 0) {
            line.field("ids", outcome.idsIssued());
        }
        if (leases.acquisitions(LeaseHolder.FUNCTION) > 0) {
            line.field("lease_acquired", true);
        }
        if (outcome.error() != null) {
            line.field("error_code", outcome.error());
        }
        if (outcome.failure() != null) {
            line.error(outcome.failure());
        }
        logger.log(line.bytes(), line.level());
        if (emf && outcome.route().metered()) {
            metrics(outcome, leases, latencyMillis, coldStart, now);
        }
    }

    /**
     * The audit line of a lease grant, renewal, release or loss: a line of the same shape as the
     * request lines, carrying the audit's fields ({@code "audit":"lease"}, slot, fence, holder,
     * window, caller), so it is filtered and shipped like them. A loss is a warning under the
     * API's code for it, {@code lease_lost}, in its message and as {@value #WARNING_CODE}.
     */
    public void audit(LeaseAudit audit) {
        LogLine line = audit.isLoss() ? LogLine.of(LogLevel.WARN, clock.getAsLong(), ErrorCode.LEASE_LOST.tag(audit.message()), service)
                : LogLine.of(LogLevel.INFO, clock.getAsLong(), audit.message(), service);
        if (audit.isLoss()) {
            line.field(WARNING_CODE, ErrorCode.LEASE_LOST.code());
        }
        for (Map.Entry<String, Object> field : audit.fields().entrySet()) {
            Object value = field.getValue();
            if (value instanceof Number) {
                line.field(field.getKey(), ((Number) value).longValue());
            } else {
                line.field(field.getKey(), String.valueOf(value));
            }
        }
        logger.log(line.bytes(), line.level());
    }

    /**
     * A line about the environment itself (settings, SnapStart hooks, shutdown), in the same
     * format. A warning's message starts with its code ({@link ProblemCode#tag}), which the line
     * also carries as {@value #WARNING_CODE}, as request lines carry {@code error_code}.
     */
    public void event(LogLevel level, String message, Throwable failure) {
        LogLine line = LogLine.of(level, clock.getAsLong(), message, service);
        String code = ProblemCode.codeOf(message);
        if (code != null) {
            line.field(WARNING_CODE, code);
        }
        if (failure != null) {
            line.error(failure);
        }
        logger.log(line.bytes(), level);
    }

    /**
     * One record for the request (its route, its error code, its lease activity), and one per pool
     * part whose occupancy a Scan saw: a record carries one value per dimension.
     */
    private void metrics(RequestOutcome outcome, LeaseActivity leases, double latencyMillis, boolean coldStart, long now) {
        MetricsRecord request = new MetricsRecord(namespace, service, now)
                .dimension(Dimension.ROUTE, outcome.route().template())
                .count(Metric.REQUESTS, 1)
                .value(Metric.LATENCY, latencyMillis);
        if (outcome.route() == Route.IDS) {
            request.count(Metric.IDS_ISSUED, outcome.idsIssued());
        }
        if (outcome.error() != null) {
            request.dimension(Dimension.ERROR_CODE, outcome.error()).count(Metric.ERRORS, 1);
        }
        if (outcome.status() >= 500) {
            request.count(Metric.SERVER_ERRORS, 1);
        }
        if (coldStart) {
            request.count(Metric.COLD_START, 1);
        }
        // One holder per request: /ids touches the function's lease, the lease routes an agent's.
        for (LeaseHolder holder : LeaseHolder.values()) {
            if (leases.touched(holder)) {
                request.dimension(Dimension.HOLDER, holder.value());
                countIfAny(request, Metric.LEASE_ACQUISITIONS, leases.acquisitions(holder));
                countIfAny(request, Metric.LEASE_RENEWALS, leases.renewals(holder));
                countIfAny(request, Metric.LEASE_LOSSES, leases.losses(holder));
                if (!leases.roundTrips(holder).isEmpty()) {
                    request.counts(Metric.ACQUISITION_ROUND_TRIPS, leases.roundTrips(holder));
                }
                break;
            }
        }
        metricsOut.println(request.toJson());
        for (LeaseActivity.Occupancy seen : leases.occupancy()) {
            metricsOut.println(new MetricsRecord(namespace, service, now)
                    .dimension(Dimension.PART, seen.part().value())
                    .value(Metric.POOL_OCCUPANCY, seen.percent())
                    .count(Metric.POOL_SLOTS_HELD, seen.held())
                    .toJson());
        }
        metricsOut.flush();
    }

    private static void countIfAny(MetricsRecord record, Metric metric, int count) {
        if (count > 0) {
            record.count(metric, count);
        }
    }

    /** ERROR for our failures, WARN when IDs or leases are refused (503, 409), INFO otherwise: client mistakes are theirs. */
    private static LogLevel level(int status) {
        if (status >= 500) {
            return status == 503 ? LogLevel.WARN : LogLevel.ERROR;
        }
        return status == 409 ? LogLevel.WARN : LogLevel.INFO;
    }
}
