package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The local runner never shows a bearer secret, but for its ready line (which prints a secret it
 * made up, once, so that it can be used): a weak one stops it without its value, misnamed ones are
 * warned about by name, and one presented with any request shows in no answer and no log line.
 */
@ExtendWith(DynamoDbEngine.class)
class SecretNeverShownTest {

    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "6dcdd2ba01fe3e6f0345979db65650d8ea8fb86bfa4bcefd2ccfaac3cb2b63f7";

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> shown = new ArrayList<>();

    @Test
    void noRefusalWarningAnswerOrLogLineShowsTheSecret(TestTable table) throws Exception {
        InvalidSettingException weak = assertThrows(InvalidSettingException.class,
                () -> LocalRunner.start(environment(table, LocalSettings.LOCAL_LEASE_SECRET, MARK + "weak")));
        shown.add(trace(weak));
        InvalidSettingException inTheHashsPlace = assertThrows(InvalidSettingException.class,
                () -> LocalRunner.start(environment(table, FunctionSettings.LEASE_SECRET_SHA256, SECRET)));
        shown.add(trace(inTheHashsPlace));

        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try (LocalRunner runner = LocalRunner.start(environment(table, LocalSettings.LOCAL_LEASE_SECRET, SECRET,
                "SNOWID_LEASE_SECRETS", SECRET, "SNOWID_LEASE_TOKEN", SECRET, "SNOWID_API_KEY", SECRET))) {
            shown.addAll(runner.warnings());
            assertTrue(String.join("\n", runner.warnings()).contains("SNOWID_LEASE_SECRETS"), runner.warnings()::toString);
            for (String header : new String[] {"Bearer " + SECRET, "Bearer " + SECRET + "x", "Basic " + SECRET, SECRET}) {
                for (String[] route : new String[][] {{"POST", "/leases"}, {"GET", "/leases"}, {"PUT", "/leases/0"},
                    {"DELETE", "/leases/0"}, {"GET", "/ids?count=abc"}, {"POST", "/%6Ceases"}, {"PATCH", "/leases"}}) {
                    shown.add(send(runner, route[0], route[1], header));
                }
            }
        } finally {
            System.setOut(stdout);
        }
        shown.add(printed.toString(StandardCharsets.UTF_8));
        assertTrue(shown.size() > 25, "every path was searched: " + shown.size());
        for (String text : shown) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    private String send(LocalRunner runner, String method, String pathAndQuery, String authorization) throws IOException,
            InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(runner.baseUri() + pathAndQuery)).timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.ofString("{\"owner\":\"" + SECRET + "\",\"fence\":1}"))
                .header("Authorization", authorization).header("Content-Type", "application/json").build();
        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        return answer.statusCode() + " " + answer.headers().map() + " " + answer.body();
    }

    private static Map<String, String> environment(TestTable table, String... extra) {
        Map<String, String> env = new HashMap<>(Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString()));
        for (int i = 0; i < extra.length; i += 2) {
            env.put(extra[i], extra[i + 1]);
        }
        return env;
    }

    private static String trace(Exception e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }
}
