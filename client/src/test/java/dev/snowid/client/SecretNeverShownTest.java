package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.protocol.CannedLeaseApi;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client front end never shows the bearer secret: a recognisable secret is fed through every
 * error path of the builder and of a lease API that refuses, fails or is not there, and every
 * message, stack trace and log line is searched for it.
 */
class SecretNeverShownTest {

    /** Strong, and recognisable anywhere it leaks, in part or whole. */
    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "6dcdd2ba01fe3e6f0345979db65650d8ea8fb86bfa4bcefd2ccfaac3cb2b63f7";

    private final List<String> shown = new ArrayList<>();
    /** Long enough for a retry's messages too, short of the default 10 s per unsettled answer. */
    private static final long STILL_RETRIES = 1_500;

    private final CannedLeaseApi api = CannedLeaseApi.start();

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void noErrorPathOfTheBuilderOrTheApiShowsTheSecret() {
        String url = api.url(CannedLeaseApi.Answer.REFUSED);
        // The builder's own refusals.
        build(() -> SnowidClient.builder().leaseUrl(url).secret(MARK + "weak"));
        build(() -> SnowidClient.builder().leaseUrl(url).secret(SECRET).awsIam());
        build(() -> SnowidClient.builder().leaseUrl(url).secret(" "));
        build(() -> SnowidClient.builder().leaseUrl("https://orders:" + SECRET + "@api.example.org").secret(SECRET));
        build(() -> SnowidClient.builder().leaseUrl("https://orders:" + SECRET + "@api.example.org/?x=" + SECRET).secret(SECRET));
        // A secret no header can carry: HttpURLConnection's own refusal would quote the header.
        build(() -> SnowidClient.builder().leaseUrl(url).secret(SECRET + "\n" + SECRET));
        build(() -> SnowidClient.builder().leaseUrl(url).secret(new Changing(SECRET, SECRET + "\u0000x")));
        build(() -> SnowidClient.builder().leaseUrl(url).secret(new Changing(SECRET, null)));
        // The API's refusals and failures, as the function and API Gateway answer them.
        for (CannedLeaseApi.Answer answer : CannedLeaseApi.Answer.values()) {
            build(() -> SnowidClient.builder().leaseUrl(api.url(answer)).secret(SECRET).startupDeadline(STILL_RETRIES));
        }
        // No API at all.
        build(() -> SnowidClient.builder().leaseUrl(CannedLeaseApi.nobodyListening()).secret(SECRET).startupDeadline(STILL_RETRIES));

        assertTrue(shown.size() >= 13 * 2, "every path failed and was searched: " + shown.size());
        for (String text : shown) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    /**
     * Configures and builds, and keeps what a person would see of the failure: message, stack
     * trace, causes, the setting to fix; and what the client logged.
     */
    private void build(Supplier<SnowidClient.Builder> configured) {
        List<String> log = new ArrayList<>();
        ClientLog recording = new ClientLog() {
            @Override
            public void info(String message) {
                log.add(message);
            }

            @Override
            public void warn(String message) {
                log.add(message);
            }

            @Override
            public void error(String message) {
                log.add(message);
            }
        };
        try {
            configured.get().log(recording).build().close();
            shown.add("built: no failure (the test expects one)" + MARK);
        } catch (RuntimeException e) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            shown.add(trace.toString());
            shown.add(String.valueOf(ClientSettings.toFix(e)));
        }
        shown.add(String.join("\n", log));
    }

    /** A secret supplier whose first answer (the builder's check) differs from the later ones (the calls'). */
    private static final class Changing implements Supplier<String> {
        private final String first;
        private final String later;
        private boolean asked;

        Changing(String first, String later) {
            this.first = first;
            this.later = later;
        }

        @Override
        public synchronized String get() {
            String answer = asked ? later : first;
            asked = true;
            return answer;
        }

        @Override
        public String toString() {
            return "a changing secret";
        }
    }
}
