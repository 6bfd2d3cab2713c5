package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the agent's start-up costs the JVM before {@code main}, in the one measure that does not
 * depend on the machine's load: the classes it loads. Each class named here once cost start-up
 * time for work done whether or not it was needed (issue 36); the app alone loads none of them.
 */
class AgentStartUpIT {

    private static final String IDS = "com.acme.legacy.LegacyIds";
    private static final String MAIN = "com.acme.legacy.LegacyApp";

    /** Never loaded before main by a fixed-node agent with no config file: each with what once loaded it. */
    private static final List<String> NOT_BEFORE_MAIN = Arrays.asList(
            "java.util.jar.JarOutputStream", // zipping the bootstrap bridge jar at start: it is built with the agent
            "java.time.zone.ZoneRulesProvider", // the zip entry's time stamp, which read the time-zone rules
            "sun.net.www.protocol.jar.JarURLConnection", // resources read through the class loader (bridge, version)
            "java.util.Properties$LineReader", // the version's properties file: the manifest says it
            "java.util.regex.Pattern", // SecretText's URL patterns, compiled with the class
            "java.nio.file.AccessDeniedException", // ConfigFile's reading, verified with the class
            "dev.snowid.agent.shaded.core.client.ClientLog", // the lease client's log, which a fixed node has no use for
            "dev.snowid.agent.shaded.core.client.ClientSettings"); // the client builder's settings, for two ranges

    @TempDir
    Path dir;

    @OnEveryJdk
    void aFixedNodeLoadsNoneOfWhatItDoesNotNeedBeforeMain(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        Path classLog = dir.resolve("classes.log");
        ChildJvm.Result result = ChildJvm.on(jdk)
                .jvmOption(jdk.major() >= 9 ? "-Xlog:class+load:file=" + classLog : "-verbose:class")
                .property("snowid.node", "7:13")
                .property("snowid.targets", IDS + "#nextLong," + IDS + "#nextBoxed," + IDS + "#nextString")
                .run(ids, MAIN, ids.toString(), "1", "3");
        assertEquals(0, result.exitCode, result::toString);

        List<String> beforeMain = new ArrayList<>();
        boolean bridgeFromBootstrapJar = false;
        String log = jdk.major() >= 9 ? new String(Files.readAllBytes(classLog), StandardCharsets.UTF_8) : result.stdout;
        // JDK 9+: "[info][class,load] a.b.C source: …"; JDK 8: "[Loaded a.b.C from …]"
        Matcher line = Pattern.compile("(?m)(?:\\[class,load\\] |^\\[Loaded )(\\S+) (?:source: |from )(.*)$").matcher(log);
        while (line.find() && !line.group(1).equals(MAIN)) {
            beforeMain.add(line.group(1));
            bridgeFromBootstrapJar |= line.group(1).equals("dev.snowid.agent.bootstrap.SnowidBridge")
                    && line.group(2).contains("snowid-bootstrap-");
        }
        assertTrue(beforeMain.contains("dev.snowid.agent.SnowidAgent") && bridgeFromBootstrapJar,
                () -> "the agent started and put its bridge on the bootstrap class path before main: " + beforeMain);
        List<String> loaded = new ArrayList<>(NOT_BEFORE_MAIN);
        loaded.retainAll(beforeMain);
        assertEquals(new ArrayList<String>(), loaded, "loaded before main, for nothing a fixed node needs");
        assertTrue(result.stderr.contains("[snowid] redirected long " + IDS + "#nextLong()"), result::toString);
    }
}
