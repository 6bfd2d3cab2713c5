package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.FunctionSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No lease secret the user gave appears in anything the runner prints: a recognisable secret
 * is fed through every way the runner can fail to start, through a run that warns, and through
 * requests that carry it right and wrong, and the whole output is searched for it. (The one
 * secret the runner prints is one it made up: {@link LocalRunnerTest}.)
 */
class RunnerSecretsTest {

    @TempDir
    Path anywhere;

    @Test
    void noFailedStartPrintsTheSecret() throws IOException {
        String secret = recognisable();
        String weak = "Recognisable-" + secret.substring(13, 19);
        List<String> outputs = new ArrayList<>();
        outputs.add(RunnerProcess.runToExit(anywhere, Map.of(LocalSettings.LOCAL_LEASE_SECRET, weak)));
        outputs.add(RunnerProcess.runToExit(anywhere, Map.of(LocalSettings.LOCAL_LEASE_SECRET, secret, LocalSettings.LOCAL_PORT, "http")));
        outputs.add(RunnerProcess.runToExit(anywhere, Map.of(LocalSettings.LOCAL_LEASE_SECRET, secret,
                FunctionSettings.LEASE_SECRET_SHA256, "not-hex", FunctionSettings.LEASE_MILLIS, "1")));
        outputs.add(RunnerProcess.runToExit(anywhere, Map.of(LocalSettings.LOCAL_LEASE_SECRET, secret,
                LocalSettings.LOCAL_DYNALITE_DIR, anywhere.resolve("no-such-folder").toString())));
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            outputs.add(RunnerProcess.runToExit(anywhere, Map.of(LocalSettings.LOCAL_LEASE_SECRET, secret,
                    LocalSettings.LOCAL_PORT, Integer.toString(taken.getLocalPort()))));
        }
        for (String output : outputs) {
            assertTrue(output.contains("snowid local:"), "it said why it stopped: " + output);
            assertFalse(output.contains(secret) || output.contains(weak), "a secret in the output:\n" + output);
        }
    }

    @Test
    void aRunThatWarnsAndServesNeverPrintsTheSecret() {
        String secret = recognisable();
        String typo = recognisable();
        Map<String, String> env = Map.of(LocalSettings.LOCAL_LEASE_SECRET, secret, "SNOWID_LEASE_SECRETS", typo,
                "SNOWID_LEASE_SECERT", typo);
        String output;
        try (RunnerProcess runner = RunnerProcess.start(anywhere, env)) {
            assertEquals(401, runner.send("POST", "/leases", false, null).statusCode());
            assertEquals(201, runnerSend(runner, "POST", "/leases", "Bearer " + secret, "{\"holder\":\"secrets-test\"}"));
            assertEquals(401, runnerSend(runner, "GET", "/leases", "Bearer " + secret + "x", null));
            assertEquals(401, runnerSend(runner, "GET", "/leases", "Basic " + secret, null));
            assertEquals(404, runnerSend(runner, "GET", "/nope", "Bearer " + secret, null));
            assertEquals(200, runnerSend(runner, "GET", "/ids", "Bearer " + secret, null));
            RawHttp.exchange(runner.engineEndpoint().getPort(), "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + secret + "\r\nConnection: close\r\n\r\n");
            RawHttp.Answer broken = RawHttp.exchange(runner.port(), "GET /leases HTTP/1.1\r\nHost: localhost:" + runner.port() + "\r\nAuthorization: Bearer " + secret + "\u0001\r\n\r\n");
            broken.assertJsonError(400, "invalid_request", "a control character beside the secret");
            assertFalse(broken.text().contains(secret), broken.text());
            output = runner.output();
        }
        assertTrue(output.contains("SNOWID_LEASE_SECRETS"), "the typo is named: " + output);
        assertFalse(output.contains(secret), "the secret in the output:\n" + output);
        assertFalse(output.contains(typo), "the typo's value in the output:\n" + output);
    }

    private static int runnerSend(RunnerProcess runner, String method, String path, String authorization, String body) {
        return runner.send(method, path, authorization, body).statusCode();
    }

    /** A strong secret no output could hold by chance. */
    private static String recognisable() {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        return "Recognisable" + HexFormat.of().formatHex(random);
    }
}
