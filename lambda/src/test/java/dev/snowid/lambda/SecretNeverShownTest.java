package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import dev.snowid.testing.InMemoryLeaseStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The function never shows a bearer secret: one left in its environment (under the wrong name, in
 * the hash's place, in a URL) stops it or is warned about without its value, and one presented
 * with any request, right or wrong, shows in no answer and no log line.
 */
class SecretNeverShownTest {

    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "zLx2VbN9fR4mT8kH6jP1sD5gYcAe";

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final List<String> shown = new ArrayList<>();

    @Test
    void aSecretInTheEnvironmentIsNeverShown() {
        // Stops the function: the secret itself where its hash belongs, or in the endpoint's URL.
        for (String[] setting : new String[][] {{FunctionSettings.LEASE_SECRET_SHA256, SECRET},
            {FunctionSettings.LEASE_SECRET_NEXT_SHA256, SECRET + SECRET.substring(0, 64 - SECRET.length())},
            {FunctionSettings.DYNAMODB_ENDPOINT, "https://me:" + SECRET + "@dynamodb.example.org"},
            {FunctionSettings.DYNAMODB_ENDPOINT, SECRET}}) {
            InvalidSettingException refused = assertThrows(InvalidSettingException.class,
                    () -> Functions.inMemory(store, setting[0], setting[1]), setting[0]);
            shown.add(trace(refused));
        }
        // Warned about at init, by name only.
        try (Function function = Functions.inMemory(store, "SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_SECERT", SECRET,
                "SNOWID_LEASE_TOKEN", SECRET, "SNOWID_API_KEY", SECRET)) {
            shown.addAll(function.log());
            assertTrue(String.join("\n", function.log()).contains("SNOWID_LEASE_SECRET is not a setting"), function.log()::toString);
        }
        assertNothingShowsTheSecret();
    }

    @Test
    void aSecretPresentedWithARequestShowsInNoAnswerAndNoLogLine() {
        try (Function function = Functions.inMemory(store)) {
            List<TestEvents.Request> requests = new ArrayList<>();
            for (String header : new String[] {"Bearer " + SECRET, "bearer " + SECRET + " ", "Bearer" + SECRET, SECRET,
                "Basic " + SECRET, "Bearer " + Functions.SECRET}) {
                for (String[] route : new String[][] {{"POST", "/leases"}, {"GET", "/leases"}, {"PUT", "/leases/0"},
                    {"DELETE", "/leases/0"}, {"POST", "/leases/"}, {"PATCH", "/leases"}, {"GET", "/ids?count=x"}, {"get", "/leases"},
                    {"GET", "/%6Ceases"}}) {
                    String[] target = route[1].split("\\?");
                    TestEvents.Request request = TestEvents.request(route[0], target[0]).header("Authorization", header)
                            .header("X-Api-Key", SECRET).body("{\"owner\":\"" + SECRET + "\",\"fence\":1}");
                    requests.add(target.length > 1 ? request.query(target[1]) : request);
                }
            }
            for (TestEvents.Request request : requests) {
                for (PayloadFormat format : PayloadFormat.values()) {
                    Invocation answer = function.call(request, format);
                    shown.add(answer.body() + " " + answer.headers());
                }
            }
            shown.addAll(function.log());
        }
        assertTrue(shown.size() > 100, "every request was answered and logged: " + shown.size());
        assertNothingShowsTheSecret();
    }

    private void assertNothingShowsTheSecret() {
        for (String text : shown) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    private static String trace(Exception e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }
}
