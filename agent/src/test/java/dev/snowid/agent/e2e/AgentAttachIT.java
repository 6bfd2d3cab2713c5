package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.SnowflakeCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attaching the agent to a running JVM as an operator would, with the JDK's own
 * {@code jcmd <pid> JVMTI.agent_load <agent jar> <properties file>}: the running application
 * started without any snowid setting, so the agent argument names the properties file.
 */
class AgentAttachIT {

    static final String MARKER = "ORIGINAL-BODY-RAN";
    private static final Pattern READY = Pattern.compile("^READY$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @OnEveryJdk
    void jcmdAttachesTheAgentToARunningJvm(Jdk jdk) throws Exception {
        Path config = dir.resolve("snowid.properties");
        Files.write(config, Arrays.asList("snowid.node=5:6", "snowid.targets=com.acme.legacy.LegacyIds#nextLong"), StandardCharsets.UTF_8);
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        Process app = ChildJvm.on(jdk).withoutAgent().start(ids, "com.acme.legacy.WaitingApp", ids.toString(), dir.resolve("go").toString());
        ChildJvm.awaitOutput(ids, app, READY);

        ChildJvm.Result attach = jcmd(jdk, app, "JVMTI.agent_load", ChildJvm.AGENT_JAR, config.toString());
        assertEquals(0, attach.exitCode, attach::toString);
        assertTrue(attach.stdout.contains("return code: 0"), attach::toString);
        Files.createFile(dir.resolve("go"));
        ChildJvm.Result result = ChildJvm.on(jdk).waitFor(ids, "WaitingApp", app);
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.startsWith(MARKER + " nextLong\nBEFORE -1\nREADY\n"), () -> "the body ran before the attach:\n" + result);
        assertEquals(result.stdout.indexOf(MARKER), result.stdout.lastIndexOf(MARKER), () -> "the body ran after the attach:\n" + result);
        assertTrue(result.stderr.contains("[snowid] redirected long com.acme.legacy.LegacyIds#nextLong()"), result::toString);
        assertTrue(result.stderr.contains(" started in ") && result.stderr.contains("node 5:6"), result::toString);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 1000, SnowflakeCodec.TWITTER, 5, 6, before, after);
    }

    /** A configuration error fails the attach, says why in the application's log, and leaves the application as it was. */
    @OnEveryJdk
    void aBadConfigurationFailsTheAttachAndLeavesTheApplicationRunning(Jdk jdk) throws Exception {
        Path missing = dir.resolve("no-such.properties");
        Path ids = dir.resolve("ids");
        Process app = ChildJvm.on(jdk).withoutAgent().start(ids, "com.acme.legacy.WaitingApp", ids.toString(), dir.resolve("go").toString());
        ChildJvm.awaitOutput(ids, app, READY);

        ChildJvm.Result attach = jcmd(jdk, app, "JVMTI.agent_load", ChildJvm.AGENT_JAR, missing.toString());
        assertFalse(attach.stdout.contains("return code: 0"), attach::toString);
        Files.createFile(dir.resolve("go"));
        ChildJvm.Result result = ChildJvm.on(jdk).waitFor(ids, "WaitingApp", app);

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] ERROR: agent argument '" + missing + "' (snowid.config) cannot be read: no such file"),
                result::toString);
        assertEquals(1001, AgentPresetIT.occurrences(result.stdout, MARKER), () -> "the legacy body still answers:\n" + result);
    }

    static ChildJvm.Result jcmd(Jdk jdk, Process app, String... command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("jcmd", "");
        String[] full = new String[command.length + 2];
        full[0] = jdk.jcmd();
        full[1] = Long.toString(app.pid());
        System.arraycopy(command, 0, full, 2, command.length);
        Process jcmd = new ProcessBuilder(full)
                .redirectOutput(output.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .start();
        if (!jcmd.waitFor(60, TimeUnit.SECONDS)) {
            jcmd.destroyForcibly().waitFor();
            fail("jcmd did not finish within 60 s");
        }
        String text = new String(Files.readAllBytes(output), StandardCharsets.UTF_8);
        Files.delete(output);
        return new ChildJvm.Result(jcmd.exitValue(), text, "");
    }

}
