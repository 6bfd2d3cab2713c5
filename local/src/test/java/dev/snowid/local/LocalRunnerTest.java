package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import dev.snowid.lambda.json.TestJson;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.protocol.json.JsonValue;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** The local runner end to end: real HTTP in, payload 2.0 events through the handler, the real engine behind. */
@ExtendWith(DynamoDbEngine.class)
class LocalRunnerTest {

    private static final String SECRET = "local-test-db63cd46fc3f68f171f001eda0cffdd57768d9ff9c7baa81b1b101f0264ec1a6";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void servesIdsDecodesThemAndReportsHealthOverHttp(TestTable table) {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            HttpResponse<String> get = send(runner, "GET", "/ids?count=100", null, null);
            assertEquals(200, get.statusCode(), get::body);
            assertEquals("application/json", get.headers().firstValue("Content-Type").orElse(""));
            List<String> ids = TestJson.items(json(get), "ids").stream().map(TestJson::text).toList();
            Set<String> distinct = new HashSet<>(ids);
            assertEquals(100, distinct.size());

            HttpResponse<String> post = send(runner, "POST", "/ids?count=2", null, "");
            assertEquals(200, post.statusCode(), post::body);

            String first = ids.get(0);
            HttpResponse<String> decoded = send(runner, "GET", "/ids/" + first, null, null);
            assertEquals(200, decoded.statusCode(), decoded::body);
            JsonValue fields = json(decoded);
            var expected = SnowflakeCodec.TWITTER.parse(first);
            assertEquals(Long.toString(expected.unixMillis()), TestJson.number(fields, "timestamp"));
            assertEquals(Integer.toString(expected.datacenter()), TestJson.number(fields, "datacenter"));

            HttpResponse<String> health = send(runner, "GET", "/health", null, null);
            assertEquals(200, health.statusCode());
            assertEquals(expected.slot().toString(), TestJson.text(json(health), "slot"));
        }
    }

    @Test
    void leaseApiOverHttpWithTheBearerSecret(TestTable table) {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            HttpResponse<String> refused = send(runner, "POST", "/leases", "Bearer not-it", "");
            assertEquals(401, refused.statusCode(), refused::body);
            assertEquals("unauthorized", TestJson.text(json(refused), "error"));

            HttpResponse<String> lease = send(runner, "POST", "/leases", "Bearer " + SECRET, "{\"holder\":\"curl\"}");
            assertEquals(201, lease.statusCode(), lease::body);
            JsonValue body = json(lease);
            String slot = TestJson.number(body, "slot");
            String claim = "{\"owner\":\"" + TestJson.text(body, "owner") + "\",\"fence\":" + TestJson.number(body, "fence");
            HttpResponse<String> renewed = send(runner, "PUT", "/leases/" + slot, "Bearer " + SECRET, claim + "}");
            assertEquals(200, renewed.statusCode(), renewed::body);
            HttpResponse<String> released = send(runner, "DELETE", "/leases/" + slot, "Bearer " + SECRET, claim + ",\"lastIssued\":0}");
            assertEquals(204, released.statusCode(), released::body);
            HttpResponse<String> again = send(runner, "DELETE", "/leases/" + slot, "Bearer " + SECRET, claim + ",\"lastIssued\":0}");
            assertEquals(204, again.statusCode(), () -> "a release sent again (its answer lost) is no loss: " + again.body());
            HttpResponse<String> renewedAfter = send(runner, "PUT", "/leases/" + slot, "Bearer " + SECRET, claim + "}");
            assertEquals(409, renewedAfter.statusCode(), renewedAfter::body);
        }
    }

    @Test
    void clientMistakesOverHttpAre4xxJson(TestTable table) {
        String[][] requests = {
            {"GET", "/ids?count=abc", null}, {"GET", "/ids?count=0", null}, {"GET", "/ids?count=4097", null},
            {"GET", "/ids?count=-1", null}, {"GET", "/ids?count=%205", null}, {"GET", "/ids?count=1.5", null},
            {"GET", "/ids?count=1&count=2", null}, {"GET", "/ids?count=%25", null}, {"GET", "/ids/-1", null},
            {"GET", "/ids/abc", null}, {"GET", "/ids/9223372036854775808", null}, {"GET", "/ids/+5", null},
            {"GET", "/nope", null}, {"GET", "/", null}, {"DELETE", "/ids", null}, {"PATCH", "/leases/0", null},
            {"POST", "/health", ""}, {"PUT", "/leases/0", "{"}, {"PUT", "/leases/0", "{\"owner\":1}"},
            {"DELETE", "/leases/0", "[]"}, {"PUT", "/leases/5000", "{}"}, {"POST", "/leases", "not json"}};
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            for (String[] r : requests) {
                HttpResponse<String> answer = send(runner, r[0], r[1], "Bearer " + SECRET, r[2]);
                String what = r[0] + " " + r[1] + " -> " + answer.statusCode() + " " + answer.body();
                assertTrue(answer.statusCode() >= 400 && answer.statusCode() < 500, what);
                JsonValue body = json(answer);
                assertTrue(body.field("error").isPresent() && body.field("message").isPresent(), what);
                if (answer.statusCode() == 405) {
                    assertTrue(answer.headers().firstValue("Allow").isPresent(), what);
                }
            }
            HttpResponse<String> noAuth = send(runner, "POST", "/leases", null, "");
            assertEquals(401, noAuth.statusCode(), noAuth::body);
        }
    }

    @Test
    void closingReleasesTheLeaseOnAConfiguredTable(TestTable table) {
        LocalRunner runner = LocalRunner.start(environment(table));
        try {
            assertEquals(200, send(runner, "GET", "/ids", null, null).statusCode());
            assertTrue(onlyItem(table).containsKey(LeaseTableSchema.OWNER), "held while running");
        } finally {
            runner.close();
        }
        assertFalse(onlyItem(table).containsKey(LeaseTableSchema.OWNER), "released on close (Ctrl-C runs close)");
    }

    @Test
    void withoutAnEndpointItStartsDynaliteOnDiskMakesUpASecretAndDeletesTheFolderOnClose() {
        Path folder;
        try (LocalRunner runner = LocalRunner.start(Map.of(LocalSettings.LOCAL_PORT, "0"))) {
            Matcher onDisk = Pattern.compile("tables on disk in (\\S+),").matcher(ready(runner));
            assertTrue(onDisk.find(), ready(runner));
            folder = Path.of(onDisk.group(1));
            assertTrue(Files.isDirectory(folder.resolve("tables")), folder + " holds dynalite's tables");
            String secret = runner.madeUpSecret().orElseThrow();
            assertTrue(secret.length() >= 32, secret);
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            runner.printReady(new PrintStream(printed, true, StandardCharsets.UTF_8));
            String ready = printed.toString(StandardCharsets.UTF_8);
            assertTrue(ready.contains("ready on http://localhost:" + runner.port()), ready);
            assertTrue(ready.contains("curl -s 'http://localhost:" + runner.port() + "/ids?count=3'"), ready);
            assertEquals(1, ready.split(secret, -1).length - 1, "the made-up secret is printed once: " + ready);
            assertTrue(ready.contains("export " + LocalSettings.LOCAL_LEASE_SECRET + "=" + secret + "\n"), ready);
            assertTrue(ready.lines().count() <= 6, "at most six lines, with a made-up secret and its own engine:\n" + ready);

            assertEquals(200, send(runner, "GET", "/ids?count=3", null, null).statusCode());
            HttpResponse<String> lease = send(runner, "POST", "/leases", "Bearer " + secret, "");
            assertEquals(201, lease.statusCode(), lease::body);
        }
        assertFalse(Files.exists(folder), "the folder is deleted when the runner stops");
    }

    @Test
    void theReadyLineShowsTheSecretsVariableNeverTheSecretAndItsCurlRuns(TestTable table) {
        Map<String, String> fromEnv = new java.util.HashMap<>(environment(table));
        fromEnv.put(LocalSettings.LOCAL_LEASE_SECRET, "  " + SECRET + "\n"); // e.g. read from a file with its newline
        try (LocalRunner runner = LocalRunner.start(fromEnv)) {
            String post = ready(runner).lines().filter(line -> line.contains("-X POST")).findFirst().orElseThrow().trim();
            assertTrue(post.contains("-H \"Authorization: Bearer $SNOWID_LEASE_SECRET\""), ready(runner));
            assertFalse(ready(runner).contains(SECRET), "the user's secret is not printed: " + ready(runner));
            // Run as printed by a shell that exported the secret, as the README's second shell does: it gets a lease.
            assertEquals("201", runInAnotherShell(post.replace("curl -s ", "curl -s -o /dev/null -w '%{http_code}' "), SECRET));
            HttpResponse<String> lease = send(runner, "POST", "/leases", "Bearer " + SECRET, "");
            assertEquals(201, lease.statusCode(), "the secret is trimmed as the server trims the presented one: " + lease.body());
        }
        Map<String, String> hashOnly = new java.util.HashMap<>(environment(table));
        hashOnly.remove(LocalSettings.LOCAL_LEASE_SECRET);
        hashOnly.put(FunctionSettings.LEASE_SECRET_SHA256, LocalRunner.sha256Hex(SECRET));
        try (LocalRunner runner = LocalRunner.start(hashOnly)) {
            assertTrue(ready(runner).contains("-H 'Authorization: Bearer <your secret>'"), ready(runner));
            assertFalse(ready(runner).contains("SNOWID_LEASE_SECRET\""), ready(runner));
        }
    }

    /** {@code line} in a fresh bash whose environment holds only PATH and SNOWID_LEASE_SECRET; its stdout. */
    private static String runInAnotherShell(String line, String secret) {
        try {
            ProcessBuilder shell = new ProcessBuilder("bash", "-c", line).redirectErrorStream(true);
            shell.environment().clear();
            shell.environment().put("PATH", System.getenv("PATH"));
            shell.environment().put(LocalSettings.LOCAL_LEASE_SECRET, secret);
            Process process = shell.start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), line);
            assertEquals(0, process.exitValue(), line + ": " + out);
            return out;
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError(line, e);
        }
    }

    private static String ready(LocalRunner runner) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        runner.printReady(new PrintStream(printed, true, StandardCharsets.UTF_8));
        return printed.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aBadSettingStopsItWithTheVariableNamed() {
        var error = org.junit.jupiter.api.Assertions.assertThrows(dev.snowid.lambda.settings.InvalidSettingException.class,
                () -> LocalRunner.start(Map.of(LocalSettings.LOCAL_PORT, "http")));
        assertEquals(LocalSettings.LOCAL_PORT, error.variable());
        assertTrue(error.getMessage().contains("0 to 65535"), error.getMessage());
    }

    /** Issue 32's guessable secrets, each of which the runner accepted before it judged with zxcvbn. */
    @Test
    void aWeakSecretStopsItWithTheCodeTheVariableNamedAndHowToMakeOne() {
        for (String weak : new String[] {"cold-start", "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM",
            "1q2w3e4r5t6y7u8i9o0p!Q@W#E$R%T^Y&U*I(O)P", "Password1!Password2!Password3!Password4!", "correcthorsebatterystaple2024",
            "2024-06-01T12:34:56.789+02:00 Europe/Berlin", "bXktc2VjcmV0LXBhc3N3b3Jk",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}) {
            var error = org.junit.jupiter.api.Assertions.assertThrows(dev.snowid.lambda.settings.InvalidSettingException.class,
                    () -> LocalRunner.start(Map.of(LocalSettings.LOCAL_PORT, "0", LocalSettings.LOCAL_LEASE_SECRET, weak)), weak);
            assertEquals(LocalSettings.LOCAL_LEASE_SECRET, error.variable());
            assertTrue(error.getMessage().startsWith("[weak_lease_secret] " + LocalSettings.LOCAL_LEASE_SECRET + " is ")
                    && error.getMessage().contains("openssl rand -base64 32") && !error.getMessage().contains(weak), error.getMessage());
            assertEquals(java.util.List.of(), dev.snowid.testing.MessageProse.strayPunctuation(error.getMessage()));
        }
    }

    @Test
    void theEmptyStringsHashStopsItWithTheCodeAndTheVariableNamed() {
        for (String hash : new String[] {"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855"}) {
            var error = org.junit.jupiter.api.Assertions.assertThrows(dev.snowid.lambda.settings.InvalidSettingException.class,
                    () -> LocalRunner.start(Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.LEASE_SECRET_SHA256, hash)));
            assertEquals(FunctionSettings.LEASE_SECRET_SHA256, error.variable());
            assertTrue(error.getMessage().startsWith("[empty_secret_hash] " + FunctionSettings.LEASE_SECRET_SHA256
                    + " is the SHA-256 of the empty string"), error.getMessage());
        }
    }

    /**
     * Issue 32: these once hashed, trimmed, to the empty string's SHA-256. Over the wire, trailing blanks are not part of a
     * header's value (RFC 9110), so the first arrives as "Bearer"; U+0001 and U+001F are refused as bad HTTP before any check.
     */
    @Test
    void aCredentialThatIsEmptyAfterTrimmingOpensNothing(TestTable table) {
        try (LocalRunner runner = LocalRunner.start(environment(table))) {
            String head = "GET /leases HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nConnection: close\r\nAuthorization: ";
            RawHttp.exchange(runner.port(), head + "Bearer  \r\n\r\n").assertJsonError(401, "unauthorized", "two spaces after Bearer");
            RawHttp.exchange(runner.port(), head + "Bearer \u0001\r\n\r\n").assertJsonError(400, "invalid_request", "Bearer \\u0001");
            RawHttp.exchange(runner.port(), head + "bearer \u001f\u001f\r\n\r\n").assertJsonError(400, "invalid_request",
                    "bearer \\u001f\\u001f");
            assertEquals(401, send(runner, "GET", "/leases", "Bearer  ", null).statusCode(), "through java.net.http");
        }
    }

    private static Map<String, String> environment(TestTable table) {
        return Map.of(LocalSettings.LOCAL_PORT, "0", FunctionSettings.TABLE, table.name(),
                FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString(), LocalSettings.LOCAL_LEASE_SECRET, SECRET);
    }

    private HttpResponse<String> send(LocalRunner runner, String method, String pathAndQuery, String authorization, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(runner.baseUri() + pathAndQuery)).timeout(Duration.ofSeconds(20))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        try {
            return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static JsonValue json(HttpResponse<String> response) {
        return TestJson.parse(response.body());
    }

    private static Map<String, AttributeValue> onlyItem(TestTable table) {
        List<Map<String, AttributeValue>> items = table.client().scan(s -> s.tableName(table.name())).items();
        assertEquals(1, items.size(), items::toString);
        return items.get(0);
    }
}
