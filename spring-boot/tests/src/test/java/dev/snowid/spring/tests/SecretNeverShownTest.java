package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.protocol.CannedLeaseApi;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The Spring Boot starter never shows the bearer secret: real apps start with a recognisable
 * secret on every path that stops start-up (a weak secret, one the real lease API refuses, an
 * API that fails, echoes the request or is not there, the secret misnamed or given as the URL),
 * and Boot's failure report, every log line and the exceptions are searched for it.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretNeverShownTest {

    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "6dcdd2ba01fe3e6f0345979db65650d8ea8fb86bfa4bcefd2ccfaac3cb2b63f7";

    /** Start-up asks again after an unsettled answer: 1.5 s shows the retry's messages as 10 s would. */
    private static final String BRIEF_RETRIES = "snowid.lease.startup-deadline=1500ms";

    private final List<String> thrown = new ArrayList<>();

    @Test
    void noStartUpFailureShowsTheSecret(CapturedOutput output) {
        String api = LeaseApi.shared().url();
        try (CannedLeaseApi canned = CannedLeaseApi.start()) {
            fail(Apps.builder(api, MARK + "weak"));
            fail(Apps.builder(api, SECRET)); // the real API refuses it: 401
            fail(Apps.builder(CannedLeaseApi.nobodyListening(), SECRET, BRIEF_RETRIES));
            for (CannedLeaseApi.Answer answer : CannedLeaseApi.Answer.values()) {
                if (answer != CannedLeaseApi.Answer.REFUSED) { // the real API's, above
                    fail(Apps.builder(canned.url(answer), SECRET, BRIEF_RETRIES));
                }
            }
            fail(Apps.builder(api, null, "snowid.lease.secrte=" + SECRET));
            fail(Apps.builder(api, null, "snowid.lease.token=" + SECRET));
            fail(Apps.builder(api, SECRET, "snowid.lease.secret-file=" + SECRET, "snowid.lease.duration=1s"));
            fail(Apps.builder("https://orders:" + SECRET + "@api.example.org", SECRET));
            fail(Apps.builder("https://api.example.org/?token=" + SECRET, SECRET));
            fail(Apps.builder(SECRET, SECRET));
        }
        String all = output.getAll();
        assertTrue(all.split("APPLICATION FAILED TO START", -1).length - 1 >= 12, "every app failed with Boot's report: " + all);
        assertFalse(all.contains(MARK), "the secret in the output: " + all);
        for (String trace : thrown) {
            assertFalse(trace.contains(MARK), "the secret in the exception: " + trace);
        }
    }

    private void fail(SpringApplicationBuilder app) {
        Exception failed = assertThrows(Exception.class, app::run);
        StringWriter trace = new StringWriter();
        failed.printStackTrace(new PrintWriter(trace));
        thrown.add(trace.toString());
    }
}
