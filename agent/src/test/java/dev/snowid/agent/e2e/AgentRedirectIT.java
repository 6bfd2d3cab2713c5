package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;

/** Real JVMs running the fixture "legacy" apps with the shaded agent jar, on every JDK found. */
class AgentRedirectIT {

    static final String MARKER = "ORIGINAL-BODY-RAN";
    static final String IDS = "com.acme.legacy.LegacyIds";

    @TempDir
    Path dir;

    @OnEveryJdk
    void fixedNodeIdsReplaceLongBoxedAndStringLegacyIdsAcrossThreads(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "7:13")
                .property("snowid.targets", IDS + "#nextLong," + IDS + "#nextBoxed," + IDS + "#nextString," + IDS + "#nextInt")
                .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "4", "50000");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertFalse(result.stdout.contains(MARKER), () -> "an original body ran:\n" + result);
        assertTrue(result.stderr.contains("[snowid] redirected long " + IDS + "#nextLong()"), result::toString);
        assertTrue(result.stderr.contains("[snowid] redirected Long " + IDS + "#nextBoxed()"), result::toString);
        assertTrue(result.stderr.contains("[snowid] redirected String " + IDS + "#nextString(String)"), result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [target_not_redirected] " + IDS + "#nextInt is not redirected: int " + IDS + "#nextInt()"),
                result::toString);
        assertTrue(result.stdout.contains("nextInt 42"), "a method that was refused keeps its body");
        assertAllFrom(IdsFile.read(ids), 200_000, SnowflakeCodec.TWITTER, 7, 13, before, after);
        // 4 threads, each calling the three methods in turn 50,000 times: 16,667 + 16,667 + 16,666.
        assertTrue(result.stderr.contains("[snowid] at shutdown: " + IDS + "#nextLong answered 66668 call(s) with snowid IDs"), result::toString);
        assertTrue(result.stderr.contains("[snowid] at shutdown: " + IDS + "#nextBoxed answered 66668 call(s) with snowid IDs"), result::toString);
        assertTrue(result.stderr.contains("[snowid] at shutdown: " + IDS + "#nextString answered 66664 call(s) with snowid IDs"), result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [target_not_redirected] " + IDS + "#nextInt was never redirected"), result::toString);
    }

    /** The start-up line names the version; it and the warnings carry the UTC time they were written at. */
    @OnEveryJdk
    void startUpLineAndWarningsAreTimestampedAndNameTheVersion(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "7:13")
                .property("snowid.targets", IDS + "#nextLong," + IDS + "#nextBoxed," + IDS + "#nextString," + IDS + "#nextInt")
                .property("snowid.target", "typo")
                .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "3");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        String timestamp = "(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z) \\[snowid\\] ";
        for (String line : new String[] {
                "snowid-agent " + Pattern.quote(ChildJvm.AGENT_VERSION) + " started in \\d+ ms: node 7:13",
                "WARNING: \\[unknown_setting\\] system property snowid\\.target is not a setting of the agent and is ignored",
                "WARNING: \\[target_not_redirected\\] " + Pattern.quote(IDS + "#nextInt is not redirected")}) {
            Matcher matcher = Pattern.compile("(?m)^" + timestamp + line).matcher(result.stderr);
            assertTrue(matcher.find(), () -> "no line '" + line + "' in\n" + result);
            long at = Instant.parse(matcher.group(1)).toEpochMilli();
            assertTrue(at >= before && at <= after, "written at " + matcher.group(1) + ", while the child ran from " + before + " to " + after);
        }
    }

    @OnEveryJdk
    void customEpochIsUsed(Jdk jdk) throws Exception {
        long epoch = 1_577_836_800_000L; // 2020-01-01T00:00:00Z
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "0:31")
                .property("snowid.epoch", Long.toString(epoch))
                .property("snowid.targets", IDS + "#nextLong," + IDS + "#nextBoxed," + IDS + "#nextString")
                .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "3000");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertAllFrom(IdsFile.read(ids), 3000, SnowflakeCodec.withEpoch(epoch), 0, 31, before, after);
    }

    @OnEveryJdk
    void targetInItsOwnUrlClassLoaderIsRedirected(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "3:4")
                .property("snowid.targets", "com.acme.legacy.isolated.IsolatedIds#next")
                .run(ids, "com.acme.legacy.IsolatedLoaderApp", ids.toString(), ChildJvm.FIXTURE_CLASSES);
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertFalse(result.stdout.contains(MARKER), () -> "the original body ran:\n" + result);
        assertTrue(result.stdout.contains("LOADER java.net.URLClassLoader"), result::toString);
        assertTrue(result.stderr.contains("[snowid] redirected long com.acme.legacy.isolated.IsolatedIds#next() in java.net.URLClassLoader@"),
                result::toString);
        assertAllFrom(IdsFile.read(ids), 1000, SnowflakeCodec.TWITTER, 3, 4, before, after);
    }

    @OnEveryJdk
    void appWithItsOwnOlderByteBuddyKeepsItAndIsRedirected(Jdk jdk) throws Exception {
        String version = System.getProperty("snowid.test.fixtureByteBuddyVersion");
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .classPath(ChildJvm.FIXTURE_CLASSES, System.getProperty("snowid.test.fixtureByteBuddy"))
                .property("snowid.node", "31:0")
                .property("snowid.targets", IDS + "#nextLong")
                .run(ids, "com.acme.legacy.OwnByteBuddyApp", ids.toString());
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.contains("APP-BYTEBUDDY from file:") && result.stdout.contains("/byte-buddy-" + version + ".jar\n"),
                result::toString);
        assertTrue(result.stdout.contains("APP-MADE made by the app's own Byte Buddy"), result::toString);
        assertFalse(result.stdout.contains(MARKER), () -> "the original body ran:\n" + result);
        assertAllFrom(IdsFile.read(ids), 1000, SnowflakeCodec.TWITTER, 31, 0, before, after);
    }

    @OnEveryJdk
    void targetsThatNeverMatchAreReported(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "1:1")
                .property("snowid.targets", IDS + "#nextLong,com.acme.legacy.Typo#next," + IDS + "#noSuchMethod")
                .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "3");

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] note: com.acme.legacy.Typo (of com.acme.legacy.Typo#next) is not on the application class path"),
                result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [target_class_not_found] com.acme.legacy.Typo#next was never redirected: no class loader loaded com.acme.legacy.Typo"),
                result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [target_not_redirected] " + IDS + "#noSuchMethod was never redirected: " + IDS
                + " (in jdk.internal.loader.ClassLoaders$AppClassLoader@"), result::toString);
        assertFalse(result.stderr.contains(IDS + "#nextLong was never redirected"), result::toString);
    }

    @OnEveryJdk
    void attachingAtRunTimeRetransformsAlreadyLoadedTargets(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .withoutAgent()
                .property("jdk.attach.allowAttachSelf", "true")
                .run(ids, "com.acme.legacy.SelfAttachApp", ids.toString(), ChildJvm.AGENT_JAR, "5:6");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.startsWith(MARKER + " nextLong\nBEFORE -1\n"), () -> "the body ran before the agent came:\n" + result);
        assertEquals(result.stdout.indexOf(MARKER), result.stdout.lastIndexOf(MARKER), () -> "the body ran after the agent came:\n" + result);
        assertTrue(result.stderr.contains("[snowid] redirected long " + IDS + "#nextLong()"), result::toString);
        assertAllFrom(IdsFile.read(ids), 1000, SnowflakeCodec.TWITTER, 5, 6, before, after);
    }

    /** Every ID decodes to the node, was issued while the child ran, and none repeats. */
    static void assertAllFrom(long[] ids, int expectedCount, SnowflakeCodec codec, int datacenter, int machine,
                              long notBefore, long notAfter) {
        assertEquals(expectedCount, ids.length, "IDs written by the child");
        for (long id : ids) {
            SnowflakeId decoded = codec.decode(id);
            if (decoded.datacenter() != datacenter || decoded.machine() != machine
                    || decoded.unixMillis() < notBefore || decoded.unixMillis() > notAfter) {
                throw new AssertionError("ID " + id + " decodes to " + decoded.datacenter() + ":" + decoded.machine() + " at "
                        + decoded.unixMillis() + ", expected " + datacenter + ":" + machine + " within [" + notBefore + ", " + notAfter + "]");
            }
        }
        assertUnique(ids);
    }

    static void assertUnique(long[] ids) {
        long[] sorted = ids.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new AssertionError("ID " + sorted[i] + " was issued twice");
            }
        }
    }
}
