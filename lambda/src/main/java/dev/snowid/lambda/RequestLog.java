package dev.snowid.lambda;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One JSON line per request on stdout (CloudWatch Logs in Lambda, the console locally), and,
 * when {@value FunctionSettings#METRICS}={@code emf}, one CloudWatch embedded-metric-format line
 * with the request's counts. No logging framework: a line per request needs none, and none
 * means nothing to load at cold start.
 */
final class RequestLog {

    static final String NAMESPACE = "snowid";

    private final PrintStream out;
    private final boolean emf;

    RequestLog(PrintStream out, FunctionSettings.Metrics metrics) {
        this.out = out;
        this.emf = metrics == FunctionSettings.Metrics.EMF;
    }

    void write(RequestOutcome outcome, int status, long latencyNanos, String requestId, long nowMillis) {
        JsonBuilder line = new JsonBuilder()
                .field("type", "request")
                .field("route", outcome.route)
                .field("method", outcome.method)
                .field("status", status)
                .rawField("latencyMs", Double.toString(Math.round(latencyNanos / 1_000.0) / 1_000.0))
                .field("slot", outcome.slot == null ? null : outcome.slot.toString())
                .field("requestId", requestId);
        if (outcome.idsIssued > 0) {
            line.field("ids", outcome.idsIssued);
        }
        if (outcome.leaseAcquired) {
            line.field("leaseAcquired", true);
        }
        if (outcome.error != null) {
            line.field("error", outcome.error);
        }
        if (outcome.failure != null) {
            line.field("exception", stackTrace(outcome.failure));
        }
        out.println(line.end());
        if (emf) {
            out.println(metrics(outcome, status, nowMillis));
        }
    }

    /** An audit line of a lease ({@link dev.snowid.client.wire.LeaseAudit}): a JSON object already. */
    void audit(String jsonLine) {
        out.println(jsonLine);
    }

    /** A message about the environment itself (SnapStart hooks, shutdown), in the same line format. */
    void event(String event, String detail) {
        out.println(new JsonBuilder().field("type", event).field("detail", detail).end());
    }

    private static String metrics(RequestOutcome outcome, int status, long nowMillis) {
        String definition = "{\"Timestamp\":" + nowMillis + ",\"CloudWatchMetrics\":[{\"Namespace\":\"" + NAMESPACE
                + "\",\"Dimensions\":[[\"Route\"]],\"Metrics\":["
                + "{\"Name\":\"IdsIssued\",\"Unit\":\"Count\"},"
                + "{\"Name\":\"LeaseAcquisitions\",\"Unit\":\"Count\"},"
                + "{\"Name\":\"Failures\",\"Unit\":\"Count\"}]}]}";
        return new JsonBuilder()
                .rawField("_aws", definition)
                .field("Route", outcome.route)
                .field("IdsIssued", outcome.idsIssued)
                .field("LeaseAcquisitions", outcome.leaseAcquired ? 1 : 0)
                // Failures: answers that are our side's (5xx), not the client's mistakes.
                .field("Failures", status >= 500 ? 1 : 0)
                .end();
    }

    private static String stackTrace(Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
