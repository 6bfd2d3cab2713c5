package dev.snowid.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code simulate.sh}, as contributing.md shows it, on the packaged module: it runs the simulator
 * as a process of its own, on the class path the build wrote, so a dependency the hand-written
 * class path lacked (as jackson-core once was) fails here, not in a contributor's hour-long run.
 */
class SimulateScriptIT {

    private static final Path ROOT = Path.of(System.getProperty("snowid.root", "../..")).toAbsolutePath().normalize();

    @Test
    void aShortRunOfNewSeedsEndsCleanAndSaysWhatItDid() throws Exception {
        String out = simulate("run", "2", "900000000");
        assertTrue(out.matches("(?s).*seeds 900000000 to \\d+: \\d+ seeds in \\d+ s, [0-9.]+ seeds/s;.*violations: 0\n.*"), out);
    }

    @Test
    void aReplayPrintsTheSeedsTraceAndItsVerdict() throws Exception {
        String out = simulate("replay", "42", "none");
        assertTrue(out.lines().count() > 10, "a trace of the seed's events: " + out);
    }

    private static String simulate(String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("simulate", ".log");
        try {
            List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("testing/simulator/simulate.sh").toString()));
            command.addAll(List.of(args));
            ProcessBuilder script = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            script.environment().put("SNOWID_SIMULATOR_NO_BUILD", "1");
            Process process = script.start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("simulate.sh " + String.join(" ", args) + " did not end within 120 s: "
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertEquals(0, process.exitValue(), "simulate.sh " + String.join(" ", args) + " failed: " + out);
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }
}
