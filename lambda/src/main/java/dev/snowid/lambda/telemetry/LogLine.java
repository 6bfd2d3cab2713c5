package dev.snowid.lambda.telemetry;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import dev.snowid.protocol.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * One structured log line with the field names of Powertools for AWS Lambda (Java): {@code
 * timestamp}, {@code level}, {@code message}, {@code service}, {@code cold_start}, the {@code
 * function_*} fields of the Lambda context, {@code xray_trace_id}, then the line's own fields,
 * and for a failure an {@code error} object ({@code name}, {@code message}, {@code stack} as an
 * array of frames, {@code cause} likewise). Written by hand: one flat object per request needs no
 * logging framework, and none means nothing more to load at cold start.
 */
public final class LogLine {

    /** Frames kept per exception: enough to see where, without flooding the log. */
    static final int MAX_FRAMES = 40;
    /** Causes followed: the store's exception wraps the SDK's, which wraps the I/O error. */
    static final int MAX_CAUSES = 4;
    /** The system property the Lambda runtime sets to the invocation's X-Ray trace header. */
    static final String TRACE_HEADER_PROPERTY = "com.amazonaws.xray.traceHeader";

    private final JsonWriter json = new JsonWriter(384);
    private final LogLevel level;

    private LogLine(LogLevel level, long nowMillis, String message, String service) {
        this.level = level;
        json.field("timestamp", timestamp(nowMillis)).field("level", level.name()).field("message", message)
                .field("service", service);
    }

    public static LogLine of(LogLevel level, long nowMillis, String message, String service) {
        return new LogLine(level, nowMillis, message, service);
    }

    /** {@code cold_start} and the invocation's fields from the Lambda context (none without one). */
    public LogLine invocation(Context context, boolean coldStart) {
        json.field("cold_start", coldStart);
        if (context == null) {
            return this;
        }
        json.field("function_name", context.getFunctionName())
                .field("function_version", context.getFunctionVersion())
                .field("function_arn", context.getInvokedFunctionArn())
                .field("function_memory_size", context.getMemoryLimitInMB())
                .field("function_request_id", context.getAwsRequestId());
        String traceId = traceRoot(traceHeader(context));
        if (traceId != null) {
            json.field("xray_trace_id", traceId);
        }
        return this;
    }

    public LogLine field(String name, String value) {
        json.field(name, value);
        return this;
    }

    public LogLine field(String name, long value) {
        json.field(name, value);
        return this;
    }

    public LogLine field(String name, boolean value) {
        json.field(name, value);
        return this;
    }

    /** A number with up to three decimals, e.g. a latency in ms. */
    public LogLine field(String name, double value) {
        json.rawField(name, Double.toString(Math.round(value * 1_000.0) / 1_000.0));
        return this;
    }

    public LogLine error(Throwable failure) {
        error(json, "error", failure, 0);
        return this;
    }

    public LogLevel level() {
        return level;
    }

    /** The line, with the line break the runtime's own JSON lines end with. */
    public byte[] bytes() {
        return (json.end() + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static void error(JsonWriter json, String name, Throwable failure, int depth) {
        json.object(name)
                .field("name", failure.getClass().getName())
                .field("message", failure.getMessage());
        StackTraceElement[] frames = failure.getStackTrace();
        json.array("stack");
        for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
            json.element(frames[i].toString());
        }
        if (frames.length > MAX_FRAMES) {
            json.element("... " + (frames.length - MAX_FRAMES) + " more");
        }
        json.close();
        Throwable cause = failure.getCause();
        if (cause != null && cause != failure && depth < MAX_CAUSES) {
            error(json, "cause", cause, depth + 1);
        }
        json.close();
    }

    private static String traceHeader(Context context) {
        String header = context.getXrayTraceId();
        return header != null ? header : System.getProperty(TRACE_HEADER_PROPERTY);
    }

    /** {@code Root=1-5759e988-bd862e3fe1be46a994272793;Parent=…;Sampled=1} → the root id, as Powertools logs it. */
    static String traceRoot(String header) {
        if (header == null || header.isEmpty()) {
            return null;
        }
        for (String part : header.split(";")) {
            String trimmed = part.trim();
            if (trimmed.startsWith("Root=")) {
                return trimmed.substring(5);
            }
        }
        return header;
    }

    /** {@code 2024-05-01T12:00:00.042Z}: UTC with milliseconds, Powertools' format, built without a formatter. */
    static String timestamp(long millis) {
        LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), 0, ZoneOffset.UTC);
        StringBuilder out = new StringBuilder(24);
        pad(out, time.getYear(), 4).append('-');
        pad(out, time.getMonthValue(), 2).append('-');
        pad(out, time.getDayOfMonth(), 2).append('T');
        pad(out, time.getHour(), 2).append(':');
        pad(out, time.getMinute(), 2).append(':');
        pad(out, time.getSecond(), 2).append('.');
        return pad(out, (int) Math.floorMod(millis, 1000), 3).append('Z').toString();
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits);
    }
}
