package dev.snowid.lambda;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.snowid.lambda.json.TestJson;
import dev.snowid.protocol.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/** Invokes a handler the way the Lambda runtime does (bytes in, bytes out) and reads the proxy response. */
record Invocation(String requestId, JsonValue response, int status, Map<String, String> headers, String body) {

    static Invocation of(SnowidHandler handler, String event) {
        String requestId = UUID.randomUUID().toString();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, new TestContext(requestId));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonValue response = TestJson.parse(out.toByteArray());
        Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        response.field("headers").flatMap(JsonValue::fields).ifPresent(h -> h.forEach((k, v) -> headers.put(k, TestJson.text(v))));
        return new Invocation(requestId, response, Integer.parseInt(TestJson.number(response, "statusCode")),
                headers, response.field("body").flatMap(JsonValue::string).orElse(""));
    }

    JsonValue json() {
        return TestJson.parse(body);
    }

    Optional<JsonValue> field(String name) {
        return json().field(name);
    }

    /** The body's string field {@code name}. */
    String text(String name) {
        return TestJson.text(json(), name);
    }

    /** The body's whole-number field {@code name}. */
    long number(String name) {
        return Long.parseLong(TestJson.number(json(), name));
    }

    /** The IDs of an /ids answer, as the strings it wrote. */
    List<String> ids() {
        return TestJson.items(json(), "ids").stream().map(TestJson::text).toList();
    }

    @Override
    public String toString() {
        return status + " " + headers + " " + body;
    }

    static final class TestContext implements Context {
        /** What the Lambda runtime passes for a sampled request: the root is what logs carry. */
        static final String TRACE_ROOT = "1-5759e988-bd862e3fe1be46a994272793";
        static final String TRACE_HEADER = "Root=" + TRACE_ROOT + ";Parent=53995c3f42cd8ad8;Sampled=1";
        private final String requestId;

        TestContext(String requestId) {
            this.requestId = requestId;
        }

        @Override public String getAwsRequestId() { return requestId; }
        @Override public String getLogGroupName() { return "/aws/lambda/snowid-test"; }
        @Override public String getLogStreamName() { return "test"; }
        @Override public String getFunctionName() { return "snowid-test"; }
        @Override public String getFunctionVersion() { return "$LATEST"; }
        @Override public String getInvokedFunctionArn() { return "arn:aws:lambda:eu-west-1:123456789012:function:snowid-test"; }
        @Override public CognitoIdentity getIdentity() { return null; }
        @Override public ClientContext getClientContext() { return null; }
        @Override public int getRemainingTimeInMillis() { return 30_000; }
        @Override public int getMemoryLimitInMB() { return 512; }
        @Override public String getXrayTraceId() { return TRACE_HEADER; }
        @Override public LambdaLogger getLogger() {
            return new LambdaLogger() {
                @Override public void log(String message) { System.out.println(message); }
                @Override public void log(byte[] message) { System.out.println(new String(message, StandardCharsets.UTF_8)); }
            };
        }
    }
}
