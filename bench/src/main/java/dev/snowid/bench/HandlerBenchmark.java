package dev.snowid.bench;

import dev.snowid.WallClock;
import dev.snowid.dynalite.Dynalite;
import dev.snowid.lambda.SnowidHandler;
import dev.snowid.lambda.dynamodb.DynamoDbLeaseStore;
import dev.snowid.lambda.dynamodb.LeaseTable;
import dev.snowid.lambda.api.Endpoint;
import dev.snowid.lambda.http.HttpApiEvent;
import dev.snowid.lambda.settings.FunctionSettings;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Warm latency of the Lambda handler: one API Gateway payload 2.0 event for
 * {@code GET /ids?count=N} in, the proxy response out, the way the Lambda runtime calls it
 * (bytes to bytes: parsing the event, routing, issuing, writing the JSON, the request log line
 * formatted). The lease is already held, as in a warm environment; renewals on the request path
 * (every half lease, against dynalite) fall inside the measurement as they would in Lambda.
 *
 * <p>A batch of 4,096 is one millisecond's whole capacity of a slot, so back-to-back batches
 * are bound by the format to about one per ms; the goal is at most 2 ms.
 *
 * <p>Run: {@code mvn -q -pl bench -am package -DskipTests && java -jar bench/target/benchmarks.jar Handler}
 * from the repository root (dynalite is found under dynalite/).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HandlerBenchmark {

    @Param({"1", "4096"})
    public int count;

    private Dynalite dynalite;
    private SnowidHandler handler;
    private byte[] event;

    @Setup(Level.Trial)
    public void warmEnvironment() throws IOException {
        dynalite = Dynalite.start();
        String table = "bench-handler-" + count;
        LeaseTable.createIfMissing(dynalite.endpoint(), table);
        FunctionSettings settings = FunctionSettings.from(Map.of(
                FunctionSettings.TABLE, table,
                FunctionSettings.DYNAMODB_ENDPOINT, dynalite.endpoint().toString()));
        DynamoDbLeaseStore store = DynamoDbLeaseStore.create(table, FunctionSettings.TABLE, Optional.of(dynalite.endpoint()), WallClock.SYSTEM);
        handler = SnowidHandler.builder(settings).store(store).logTo(new PrintStream(OutputStream.nullOutputStream()))
                .build();
        event = event(count);
        String first = invoke().toString(StandardCharsets.UTF_8);
        if (!first.contains("\"statusCode\":200")) {
            throw new IllegalStateException("the warm-up request failed: " + first);
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        handler.close();
        dynalite.close();
    }

    @Benchmark
    public ByteArrayOutputStream idsRequest() throws IOException {
        return invoke();
    }

    private ByteArrayOutputStream invoke() throws IOException {
        ByteArrayOutputStream response = new ByteArrayOutputStream(count * 26 + 256);
        handler.handleRequest(new ByteArrayInputStream(event), response, null);
        return response;
    }

    /** What an HTTP API sends for {@code GET /ids?count=N} (payload format 2.0, $default stage). */
    private static byte[] event(int count) {
        return HttpApiEvent.request("GET", "/ids").routeKey(Endpoint.routeKeyOf("GET", "/ids")).rawQuery("count=" + count)
                .header("accept", "*/*").header("host", "abc123.execute-api.eu-west-1.amazonaws.com").header("user-agent", "curl/8.5.0")
                .header("x-forwarded-for", "203.0.113.7").header("x-forwarded-port", "443").header("x-forwarded-proto", "https")
                .queryParameters(Map.of("count", Integer.toString(count)))
                .api("123456789012", "abc123", "abc123.execute-api.eu-west-1.amazonaws.com", "abc123")
                .sourceIp("203.0.113.7").requestId("bench").time("29/Nov/2026:23:00:00 +0000", 1795906800000L)
                .json().getBytes(StandardCharsets.UTF_8);
    }
}
