package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner in its own JVM, started as the README starts it (a lease secret in the environment,
 * here with {@code SNOWID_PORT=0} so that tests never clash on 8080): its process reads the
 * function's settings and its own, so it warns about nothing; a typo of one of them is warned
 * about once, naming the setting meant, before anything starts. Its output is read as a user reads it.
 */
class LocalRunnerWarningsTest {

    @TempDir
    Path anywhere;

    @Test
    void startedAsTheReadmeShowsItWarnsAboutNothing() {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, Map.of())) {
            assertEquals(200, runner.send("GET", "/ids", false, null).statusCode());
            String output = runner.output();
            assertFalse(output.contains("is not a setting"), output);
            assertFalse(output.contains("warning"), output);
            assertFalse(output.contains("\"level\":\"WARN\""), "no WARN line of the function's either:\n" + output);
        }
    }

    @Test
    void aMistypedSettingIsWarnedAboutOnceNamingTheOneMeant() {
        try (RunnerProcess runner = RunnerProcess.start(anywhere, Map.of("SNOWID_PROT", "1"))) {
            List<String> lines = runner.output().lines().filter(line -> line.contains("SNOWID_PROT")).toList();
            assertEquals(List.of("snowid local: warning: [unknown_setting] environment variable SNOWID_PROT is not a setting of the local runner and is"
                    + " ignored; did you mean `SNOWID_PORT`?"), lines, runner.output());
            assertTrue(runner.output().indexOf("SNOWID_PROT") < runner.output().indexOf("ready on"), "said before the ready line");
        }
    }

    /** The typo troubleshooting.md shows, in the one case where it matters: the port it meant to change is busy. */
    @Test
    void aMistypedPortIsWarnedAboutBeforeTheBusyPortStopsTheRunnerUnderItsCode() throws IOException {
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = busy.getLocalPort();
            String output = RunnerProcess.runToExit(anywhere, Map.of("SNOWID_PROT", "9090", LocalSettings.LOCAL_PORT,
                    Integer.toString(port)));
            String warning = "snowid local: warning: [unknown_setting] environment variable SNOWID_PROT is not a setting of the local"
                    + " runner and is ignored; did you mean `SNOWID_PORT`?";
            String error = "snowid local: could not start: [port_in_use] could not listen on localhost:" + port
                    + " (Address already in use); set SNOWID_PORT to a free port, or 0 for any";
            assertTrue(output.contains(warning + "\n"), output);
            assertTrue(output.contains(error), output);
            assertTrue(output.indexOf(warning) < output.indexOf(error), "the warning comes first: " + output);
            assertTrue(output.contains("snowid local: dynalite (pid ") && output.indexOf(warning) < output.indexOf("snowid local: dynalite"),
                    "said before anything starts, its engine the first: " + output);
        }
    }
}
