package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.agent.cli.CheckCommand;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.dynalite.Dynalite;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.engine.FaultyProxy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar snowid-agent.jar check <url>} against the local runner as operators start it
 * (its own dynalite), and the two failures an operator meets first: a wrong secret, an engine
 * that is gone. Each failure must name its step.
 */
class DeploymentCheckIT {

    /** As {@code openssl rand -base64 32} makes them. */
    private static final String SECRET = newSecret();

    @TempDir
    Path dir;

    @Test
    void passesAgainstTheLocalRunnerWithOneLinePerStep() throws Exception {
        try (LocalRunner runner = LocalRunner.start(runnerEnvironment())) {
            ChildJvm.Result result = ChildJvm.on(Jdk.all().get(0)).env("SNOWID_LEASE_SECRET", SECRET)
                    .runAgentJar(dir.resolve("run"), "check", runner.baseUri().toString());

            assertEquals(0, result.exitCode, result::toString);
            String[] lines = result.stdout.split("\\R");
            String[] steps = {"secret", "lease", "clock", "issue", "slot-map", "region", "ids", "release"};
            assertEquals("check " + runner.baseUri(), lines[0], result::toString);
            for (int i = 0; i < steps.length; i++) {
                assertTrue(lines[i + 1].startsWith(String.format("ok   %-9s ", steps[i])), result::toString);
            }
            assertEquals("check passed: 8 steps", lines[steps.length + 1], result::toString);
            // The slot map step saw the check's own lease; the release gave it back.
            assertTrue(lines[5].contains("agents 1/1 held"), result::toString); // the runner splits its pool as the template does
            assertFalse(slotMapShowsTheCheck(runner), "the check's lease was not given back");
        }
    }

    @Test
    void aWrongSecretFailsAtTheSecretStep() {
        try (LocalRunner runner = LocalRunner.start(runnerEnvironment())) {
            Run run = check(runner.baseUri().toString(), newSecret());

            assertEquals(1, run.status, run::toString);
            assertTrue(run.out.startsWith("check " + runner.baseUri() + "\nFAIL secret "), run::toString);
            // A streamed request (never resent by the JDK) reads no body with a 401: the API's words come from its challenge header.
            assertTrue(run.out.contains("HTTP 401") && run.out.contains("unauthorized: the bearer secret is wrong")
                    && run.out.contains("set SNOWID_LEASE_SECRET"), run::toString);
            assertEquals("check failed at step 'secret'\n", run.err, run::toString);
        }
    }

    @Test
    void aLostAnswerAtTheLeaseStepIsAskedAgainAndLeavesOneSlotHeldThenNone() {
        try (LocalRunner runner = LocalRunner.start(runnerEnvironment());
             FaultyProxy proxy = FaultyProxy.inFrontOf(runner.baseUri()).loseNextAnswers(1, "POST /leases ")) {
            Run run = check(proxy.endpoint().toString(), SECRET);

            assertEquals(0, run.status, run::toString);
            assertTrue(run.out.contains("([acquisition_unsettled] the lease API did not settle the acquisition; asking again with the same request id"),
                    run::toString);
            // The slot-map step passes only when the check's holder holds the leased slot alone.
            assertTrue(run.out.contains("ours among them, the check's only slot"), run::toString);
            assertFalse(slotMapShowsTheCheck(runner), "the lease granted to the lost answer was the check's, and given back");
        }
    }

    @Test
    void aStoppedEngineFailsAtTheLeaseStepNamingTheStore() {
        Dynalite engine = Dynalite.start();
        Map<String, String> env = runnerEnvironment();
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, engine.endpoint().toString());
        try (LocalRunner runner = LocalRunner.start(env)) {
            assertEquals(0, check(runner.baseUri().toString(), SECRET).status, "the check must pass while the engine runs");
            engine.close();

            Run run = run(new HashMap<>(Map.of("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_STARTUPDEADLINE", "1500")),
                    runner.baseUri().toString());

            assertEquals(1, run.status, run::toString);
            assertTrue(run.out.startsWith("check " + runner.baseUri() + "\n"), run::toString);
            assertTrue(run.out.contains("\nFAIL lease "), run::toString);
            assertTrue(run.out.contains("store_unavailable"), run::toString);
            assertEquals("check failed at step 'lease'\n", run.err, run::toString);
        } finally {
            engine.close();
        }
    }

    @Test
    void noSecretIsAUsageErrorNamingTheVariable() {
        Run run = run(new HashMap<>(), "http://localhost:1");
        assertEquals(2, run.status, run::toString);
        assertTrue(run.err.contains("SNOWID_LEASE_SECRET is not set"), run::toString);
    }

    private static boolean slotMapShowsTheCheck(LocalRunner runner) {
        SlotMap map = new HttpLeaseSource(HttpUrl.parse(runner.baseUri().toString()), () -> SECRET, "test").slotMap();
        for (SlotMap.Entry entry : map.leases()) {
            if (entry.lease().holder().startsWith("snowid-agent check ")) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> runnerEnvironment() {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put("SNOWID_DATACENTERS", "3");
        env.put("SNOWID_MACHINES", "0-1");
        return env;
    }

    private static Run check(String url, String secret) {
        Map<String, String> env = new HashMap<>();
        env.put("SNOWID_LEASE_SECRET", secret);
        return run(env, url);
    }

    private static Run run(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CheckCommand.run(args, env, new PrintStream(out, true), new PrintStream(err, true));
        return new Run(status, out.toString().replace(System.lineSeparator(), "\n"), err.toString().replace(System.lineSeparator(), "\n"));
    }

    private static String newSecret() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static final class Run {
        final int status;
        final String out;
        final String err;

        Run(int status, String out, String err) {
            this.status = status;
            this.out = out;
            this.err = err;
        }

        @Override
        public String toString() {
            return "exit " + status + "\nstdout:\n" + out + "stderr:\n" + err;
        }
    }
}
