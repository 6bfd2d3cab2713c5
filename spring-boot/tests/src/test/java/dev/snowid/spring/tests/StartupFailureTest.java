package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.leaseapi.LeaseApi;
import java.io.IOException;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A wrong secret, an unreachable URL, a full pool, a missing URL: start-up stops, and Boot's report names the property to fix. */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureTest {

    private static final String WRONG_SECRET = "not-the-secret-1087dd6f1dc2d876abe6e38b01159c3bf2c2479505045b7144f5737cf3bea735";

    @Test
    void aWrongSecretStopsStartUpNamingTheSecretProperty(CapturedOutput output) {
        String url = LeaseApi.shared().url();
        assertThrows(Exception.class, () -> Apps.builder(url, WRONG_SECRET).run());
        assertReport(output,
                "The lease API at " + url + " refused the bearer secret (snowid.lease.secret): HTTP 401",
                "Set snowid.lease.secret (or SNOWID_LEASE_SECRET) to the secret the lease API expects.");
        assertTrue(output.getAll().contains("unauthorized: the bearer secret is wrong"), "the API's code and message");
        assertFalse(output.getAll().contains(WRONG_SECRET), "the secret in a log line");
    }

    /** Issue 32: the starter judges the secret it holds as every front end does, before any request. */
    @Test
    void aGuessableSecretStopsStartUpNamingTheSecretPropertyAndHowToMakeOne(CapturedOutput output) {
        String guessable = "correcthorsebatterystaple2024";
        assertThrows(Exception.class, () -> Apps.builder(LeaseApi.shared().url(), guessable).run());
        assertReport(output, "snowid cannot lease a node slot: [weak_lease_secret] secret is too weak",
                "Set snowid.lease.secret to the lease API's bearer secret, a secret that takes at least 2^128 guesses, e.g. openssl rand"
                        + " -base64 32");
        assertFalse(output.getAll().contains(guessable), "the secret in a log line");
    }

    @Test
    void anUnreachableUrlStopsStartUpNamingTheUrlProperty(CapturedOutput output) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // nothing listens there once closed
        }
        String url = "http://127.0.0.1:" + closedPort;
        assertThrows(Exception.class, () -> Apps.builder(url, LeaseApi.SECRET).run());
        assertReport(output,
                "snowid could not reach the lease API at " + url + " (snowid.lease.url): [lease_api_unreachable] could not connect to the"
                        + " lease API: POST /leases at " + url + " failed",
                "Check snowid.lease.url: it must be the snowid function's base URL");
        assertFalse(output.getAll().contains(LeaseApi.SECRET), "the secret in a log line");
    }

    @Test
    void aFullPoolStopsStartUpNamingTheWaitProperty(CapturedOutput output) {
        try (LeaseApi api = LeaseApi.start(1)) {
            api.holdAllFree(3_600_000);
            assertThrows(Exception.class, () -> Apps.builder(api.url(), LeaseApi.SECRET).run());
            assertReport(output,
                    "Every node slot of the lease API's pool at " + api.url() + " is held",
                    "or set snowid.lease.wait-for-slot (how long start-up may wait for a free slot, 0 to 1h) to wait for a slot to free.");
            api.freeAll();
        }
    }

    /** Issue 32: the starter sent the secret in clear to any host; now it refuses, naming the opt-in. */
    @Test
    void theSecretOverPlainHttpToAnotherHostStopsStartUpNamingTheOptIn(CapturedOutput output) {
        String url = "http://snowid-runner.invalid:8080";
        assertThrows(Exception.class, () -> Apps.builder(url, LeaseApi.SECRET).run());
        assertReport(output, "snowid cannot lease a node slot: [secret_over_plain_http] snowid.lease.url='" + url + "' is plain http to"
                + " snowid-runner.invalid, which is not this machine",
                "Set snowid.lease.allow-plain-http to true, only on a network you trust (else use https in snowid.lease.url), or false.");
        assertFalse(output.getAll().contains(LeaseApi.SECRET), "the secret in a log line");
    }

    @Test
    void aMissingUrlStopsStartUpNamingIt(CapturedOutput output) {
        assertThrows(Exception.class, () -> Apps.builder(null, LeaseApi.SECRET).run());
        assertReport(output, "snowid cannot lease a node slot: snowid.lease.url is not set",
                "Set snowid.lease.url to the snowid function's base URL");
    }

    @Test
    void aMistypedUrlPropertyIsNamedWithTheOneMeant(CapturedOutput output) {
        String url = LeaseApi.shared().url();
        assertThrows(Exception.class, () -> Apps.builder(null, LeaseApi.SECRET, "snowid.lease.ulr=" + url).run());
        assertReport(output, "snowid cannot lease a node slot: snowid.lease.url is not set; snowid.lease.ulr is set",
                "Set snowid.lease.url to the snowid function's base URL");
        assertTrue(output.getAll().contains("which is not a setting of the starter; did you mean `snowid.lease.url`?"), output::getAll);
        assertTrue(output.getAll().contains("[unknown_setting] property snowid.lease.ulr is not a setting of the Spring Boot starter and is ignored;"
                + " did you mean `snowid.lease.url`?"), "and warned about: " + output.getAll());
    }

    @Test
    void aLeaseLengthOutOfRangeStopsStartUpNamingIt(CapturedOutput output) {
        assertThrows(Exception.class, () -> Apps.builder(LeaseApi.shared().url(), LeaseApi.SECRET, "snowid.lease.duration=1s").run());
        assertReport(output, "snowid.lease.duration 'PT1S' is not allowed: leaseMillis 1000 is out of range",
                "Set snowid.lease.duration to a lease length from 5s to 1h.");
    }

    static void assertReport(CapturedOutput output, String description, String action) {
        String all = output.getAll();
        assertTrue(all.contains("APPLICATION FAILED TO START"), () -> "Boot's failure report: " + all);
        int report = all.indexOf("APPLICATION FAILED TO START");
        String text = all.substring(report);
        assertTrue(text.contains("Description:") && text.contains(description), () -> "description '" + description + "' in: " + text);
        assertTrue(text.contains("Action:") && text.contains(action), () -> "action '" + action + "' in: " + text);
    }
}
