package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

/** The local runner prints the function's own log lines and metric records, as Lambda would log them. */
@ExtendWith(DynamoDbEngine.class)
class LocalRunnerLogTest {

    @Test
    void printsTheFunctionsJsonLinesOnStdout(TestTable table) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        String requestBody;
        try (LocalRunner runner = LocalRunner.start(Map.of(
                FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(),
                LocalSettings.LOCAL_PORT, "0",
                LocalSettings.LOCAL_LEASE_SECRET, "local-log-0704f469b459141b7ae53f6c4a8093e5fb6ca6527de214bdefe7f051b0275576",
                FunctionSettings.METRICS, "emf"))) {
            HttpResponse<String> answer = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(runner.baseUri() + "/ids?count=2")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            requestBody = answer.body();
            assertEquals(200, answer.statusCode(), answer::body);
        } finally {
            System.setOut(stdout);
        }
        List<JsonNode> json = captured.toString(StandardCharsets.UTF_8).lines().filter(l -> l.startsWith("{"))
                .map(l -> JsonNode.parser().parse(l)).toList();
        JsonNode line = json.stream().filter(l -> l.field("route").isPresent()).findFirst()
                .orElseThrow(() -> new AssertionError("no request line in " + captured));
        assertEquals("GET /ids 200", line.field("message").orElseThrow().asString());
        assertEquals("snowid-local", line.field("function_name").orElseThrow().asString());
        assertEquals(36, line.field("function_request_id").orElseThrow().asString().length(), "the bridge's request id");
        assertTrue(line.field("cold_start").orElseThrow().asBoolean());
        assertFalse(requestBody.isEmpty());
        assertTrue(json.stream().anyMatch(l -> l.field("_aws").isPresent() && l.field("IdsIssued").isPresent()),
                "the EMF record too: " + captured);
    }
}
