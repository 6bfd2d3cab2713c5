package dev.snowid.lambda;

import dev.snowid.WallClock;
import dev.snowid.lambda.api.BearerSecretCheck;
import dev.snowid.lambda.dynamodb.TestStores;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/** Handlers as the Lambda runtime would build them, on a real engine's table or one in memory, with their log captured. */
final class Functions {

    static final String SECRET = "correct horse battery staple";

    private Functions() {
    }

    static Map<String, String> environment(TestTable table, String... extra) {
        Map<String, String> env = new HashMap<>();
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        return withSecretAnd(env, extra);
    }

    /** The bearer secret's hash, then {@code extra}'s names and values (a null value removes the name). */
    private static Map<String, String> withSecretAnd(Map<String, String> env, String... extra) {
        env.put(FunctionSettings.LEASE_SECRET_SHA256, HexFormat.of().formatHex(BearerSecretCheck.sha256(SECRET)));
        for (int i = 0; i < extra.length; i += 2) {
            if (extra[i + 1] == null) {
                env.remove(extra[i]);
            } else {
                env.put(extra[i], extra[i + 1]);
            }
        }
        return env;
    }

    /** A function environment on {@code table}; its log lines land in {@link Function#log()}. */
    static Function function(TestTable table, WallClock clock, String... extra) {
        return function(table, clock, clock, extra);
    }

    /**
     * As above, with the store's {@code Date} header compared with {@code storeSkewClock}: a test that
     * moves {@code clock} by hand to play a frozen environment gives the machine's real clock here.
     */
    static Function function(TestTable table, WallClock clock, WallClock storeSkewClock, String... extra) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        FunctionSettings settings = FunctionSettings.from(environment(table, extra));
        SnowidHandler handler = SnowidHandler.builder(settings).store(TestStores.store(table, storeSkewClock)).clock(clock)
                .logTo(new PrintStream(log, true, StandardCharsets.UTF_8)).build();
        return new Function(handler, log);
    }

    static Function function(TestTable table, String... extra) {
        return function(table, WallClock.SYSTEM, extra);
    }

    /**
     * A function environment on {@code store}, a lease table in memory: for tests whose subject is
     * the answer's shape (status, code, message, headers), not the engine's conditions, which the
     * engine suites prove.
     */
    static Function inMemory(InMemoryLeaseStore store, String... extra) {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        FunctionSettings settings = FunctionSettings.from(withSecretAnd(new HashMap<>(), extra));
        return new Function(SnowidHandler.builder(settings).store(store).logTo(new PrintStream(log, true, StandardCharsets.UTF_8)).build(),
                log);
    }

    record Function(SnowidHandler handler, ByteArrayOutputStream logBytes) implements AutoCloseable {

        Invocation call(String event) {
            return Invocation.of(handler, event);
        }

        Invocation call(TestEvents.Request request, PayloadFormat format) {
            return Invocation.of(handler, request.in(format));
        }

        List<String> log() {
            return Arrays.stream(logBytes.toString(StandardCharsets.UTF_8).split("\n")).filter(l -> !l.isBlank()).toList();
        }

        /** The log lines, parsed (every line must be JSON), without the metric records and the leases' audit lines. */
        List<JsonNode> logLines() {
            return log().stream().map(l -> JsonNode.parser().parse(l))
                    .filter(line -> line.field("_aws").isEmpty() && line.field("audit").isEmpty()).toList();
        }

        /** The leases' audit lines ({@code "audit":"lease"}), parsed. */
        List<JsonNode> auditLines() {
            return log().stream().map(l -> JsonNode.parser().parse(l)).filter(line -> line.field("audit").isPresent()).toList();
        }

        /** The CloudWatch embedded-metric-format records, parsed. */
        List<JsonNode> metricRecords() {
            return log().stream().map(l -> JsonNode.parser().parse(l)).filter(line -> line.field("_aws").isPresent()).toList();
        }

        void clearLog() {
            logBytes.reset();
        }

        @Override
        public void close() {
            handler.close();
        }
    }
}
