package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code java -jar snowid-agent.jar decode …} as operators run it. */
class DecodeCliIT {

    @TempDir
    Path dir;

    private final Jdk jdk = defaultJdk();

    @Test
    void decodesTheSpecExample() throws Exception {
        ChildJvm.Result result = ChildJvm.on(jdk).runAgentJar(dir.resolve("run"), "decode", "1724551110457221119");

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.contains("timestamp:  1700000000000\n"), result::toString);
        assertTrue(result.stdout.contains("time:       2023-11-14T22:13:20Z\n"), result::toString);
        assertTrue(result.stdout.contains("datacenter: 7\n"), result::toString);
        assertTrue(result.stdout.contains("machine:    13\n"), result::toString);
        assertTrue(result.stdout.contains("sequence:   4095\n"), result::toString);
    }

    @Test
    void printsTheVersionTheBuildGaveIt() throws Exception {
        for (String command : new String[] {"version", "--version"}) {
            ChildJvm.Result result = ChildJvm.on(jdk).runAgentJar(dir.resolve("run"), command);

            assertEquals(0, result.exitCode, result::toString);
            assertEquals("snowid-agent " + ChildJvm.AGENT_VERSION + System.lineSeparator(), result.stdout, result::toString);
        }
    }

    @Test
    void decodesWithACustomEpoch() throws Exception {
        // The spec example's offset, 411165025343 ms, counted from 2020-01-01 instead of Twitter's epoch.
        ChildJvm.Result result = ChildJvm.on(jdk).runAgentJar(dir.resolve("run"), "decode", "--epoch", "1577836800000", "1724551110457221119");

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.contains("timestamp:  " + (1577836800000L + 411165025343L) + "\n"), result::toString);
    }

    @Test
    void invalidIdsExitNonZeroWithTheReason() throws Exception {
        for (String bad : List.of("-5", "12a", "9223372036854775808")) {
            ChildJvm.Result result = ChildJvm.on(jdk).runAgentJar(dir.resolve("run"), "decode", bad);

            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stderr.startsWith("invalid ID: "), result::toString);
            assertTrue(result.stdout.isEmpty(), result::toString);
        }
    }

    @Test
    void badArgumentsPrintUsage() throws Exception {
        for (String[] args : List.of(new String[0], new String[] {"decod", "1"}, new String[] {"decode"},
                new String[] {"decode", "--epoch", "soon", "1"}, new String[] {"decode", "1", "2"})) {
            ChildJvm.Result result = ChildJvm.on(jdk).runAgentJar(dir.resolve("run"), args);

            assertEquals(2, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("usage: java -jar snowid-agent.jar decode [--epoch <unix ms>] [--plan <file> | --api <url>] <id>"), result::toString);
        }
    }

    private static Jdk defaultJdk() {
        return Jdk.all().get(0);
    }
}
