package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.io.TempDir;

/**
 * The presets against the real libraries from Maven Central: every public ID path of Hutool and
 * MyBatis-Plus (static helpers, instances of their own, the IdentifierGenerator behind
 * {@code @TableId(type = ASSIGN_ID)} inserting into a database, string variants, calls through
 * generic interfaces) returns snowid's IDs, from many threads; a partial target is warned about
 * at once, naming the preset.
 */
class AgentPresetIT {

    static final String MARKER = "ORIGINAL-BODY-RAN";
    static final String SNOWFLAKE = "cn.hutool.core.lang.Snowflake";
    static final String SEQUENCE = "com.baomidou.mybatisplus.core.toolkit.Sequence";

    @TempDir
    Path dir;

    @OnEveryJdk
    void hutoolPresetRedirectsEveryPathMixedWithATarget(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk).withLibraries()
                .property("snowid.node", "7:13")
                .property("snowid.targets", "hutool, com.acme.legacy.LegacyIds#nextLong")
                .run(ids, "com.acme.legacy.HutoolApp", ids.toString(), "4", "50000");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertFalse(result.stdout.contains(MARKER), () -> "an original body ran:\n" + result);
        assertTrue(result.stderr.contains("[snowid] redirected long " + SNOWFLAKE + "#nextId() in jdk.internal.loader.ClassLoaders$AppClassLoader@")
                && result.stderr.contains(" to the snowid generator (preset hutool)"), result::toString);
        assertTrue(result.stderr.contains("2 target(s) (presets: hutool)"), result::toString);
        assertFalse(result.stderr.contains("[snowid] WARNING"), () -> "no warning expected:\n" + result);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 200_000, SnowflakeCodec.TWITTER, 7, 13, before, after);
        // 4 threads × 50,000 calls, one in ten of them LegacyIds.nextLong(); every other path funnels into Snowflake#nextId.
        assertTrue(result.stderr.contains("[snowid] at shutdown: " + SNOWFLAKE + "#nextId (preset hutool) answered 180000 call(s) with snowid IDs"),
                result::toString);
        assertTrue(result.stderr.contains("[snowid] at shutdown: com.acme.legacy.LegacyIds#nextLong answered 20000 call(s)"), result::toString);
    }

    @OnEveryJdk
    void mybatisPlusPresetRedirectsEveryPathIncludingAssignIdInserts(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk).withLibraries()
                .property("snowid.node", "21:9")
                .property("snowid.targets", "mybatis-plus")
                .run(ids, "com.acme.legacy.mp.MybatisPlusApp", ids.toString(), "4", "49000", "4000");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.contains("INSERTED 4000"), result::toString);
        assertTrue(result.stderr.contains("[snowid] redirected long " + SEQUENCE + "#nextId() in ")
                && result.stderr.contains(" to the snowid generator (preset mybatis-plus)"), result::toString);
        assertFalse(result.stderr.contains("[snowid] WARNING"), () -> "no warning expected:\n" + result);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 200_000, SnowflakeCodec.TWITTER, 21, 9, before, after);
        assertTrue(result.stderr.contains("[snowid] at shutdown: " + SEQUENCE + "#nextId (preset mybatis-plus) answered 200000 call(s)"),
                result::toString);
    }

    /** The issue's case: only IdWorker#getId named, while @TableId(ASSIGN_ID) and getIdStr() keep MyBatis-Plus's own node. */
    @OnEveryJdk
    void aPartialTargetOfMybatisPlusIsWarnedAboutNamingThePreset(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        ChildJvm.Result result = ChildJvm.on(jdk).withLibraries()
                .property("snowid.node", "21:9")
                .property("snowid.targets", "com.baomidou.mybatisplus.core.toolkit.IdWorker#getId")
                .run(ids, "com.acme.legacy.mp.MybatisPlusApp", ids.toString(), "1", "800", "100");

        assertEquals(0, result.exitCode, result::toString);
        // Whichever class of the family loads first says it: here MyBatis-Plus's own start-up loads DefaultIdentifierGenerator.
        assertTrue(result.stderr.contains(" (MyBatis-Plus) was loaded, but only part of MyBatis-Plus is redirected: " + SEQUENCE
                + "#nextId, which all of its IDs go through, is not a target")
                && result.stderr.contains("add the preset 'mybatis-plus' to snowid.targets"), result::toString);
        assertEquals(1, occurrences(result.stderr, "only part of MyBatis-Plus"), "warned once:\n" + result);
        // What the warning says is so: the other paths still issue IDs from MyBatis-Plus's own nodes.
        long fromOtherNodes = Arrays.stream(IdsFile.read(ids)).filter(id -> !SnowflakeCodec.TWITTER.decode(id).slot().equals(Slot.of(21, 9))).count();
        assertTrue(fromOtherNodes > 100, "IDs from MyBatis-Plus's own nodes: " + fromOtherNodes);
    }

    @OnEveryJdk
    void aPartialTargetOfHutoolIsWarnedAboutNamingThePreset(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        ChildJvm.Result result = ChildJvm.on(jdk).withLibraries()
                .property("snowid.node", "7:13")
                .property("snowid.targets", "cn.hutool.core.util.IdUtil#getSnowflakeNextId,com.acme.legacy.LegacyIds#nextLong")
                .run(ids, "com.acme.legacy.HutoolApp", ids.toString(), "1", "100");

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [library_partly_redirected] cn.hutool.core.util.IdUtil (Hutool) was loaded, but only part of Hutool is redirected: "
                + SNOWFLAKE + "#nextId, which all of its IDs go through, is not a target")
                && result.stderr.contains("add the preset 'hutool' to snowid.targets"), result::toString);
        assertEquals(1, occurrences(result.stderr, "only part of Hutool"), "warned once:\n" + result);
    }

    /** No target of the library at all, but its generator is in use: said when that class loads. */
    @OnEveryJdk
    void anUnredirectedGeneratorInUseIsWarnedAbout(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        ChildJvm.Result result = ChildJvm.on(jdk).withLibraries()
                .property("snowid.node", "7:13")
                .property("snowid.targets", "com.acme.legacy.LegacyIds#nextLong")
                .run(ids, "com.acme.legacy.HutoolApp", ids.toString(), "1", "100");

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [library_not_redirected] " + SNOWFLAKE + " (Hutool's generator) was loaded and is not redirected")
                && result.stderr.contains("add the preset 'hutool' to snowid.targets"), result::toString);
    }

    /** Hutool issues with Twitter's epoch: another snowid.epoch changes the IDs' shape, which the agent says at start-up. */
    @OnEveryJdk
    void anEpochOtherThanTheLibrarysIsWarnedAbout(Jdk jdk) throws Exception {
        long epoch = 1_577_836_800_000L;
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk).withLibraries()
                .property("snowid.node", "4:4")
                .property("snowid.epoch", Long.toString(epoch))
                .property("snowid.targets", "hutool,com.acme.legacy.LegacyIds#nextLong")
                .run(ids, "com.acme.legacy.HutoolApp", ids.toString(), "1", "1000");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [preset_epoch_differs] preset hutool: Hutool issues its IDs with epoch 1288834974657 (41-bit ms | 5-bit"
                + " datacenter | 5-bit machine | 12-bit sequence), snowid with epoch " + epoch + ": the IDs change shape, new IDs sort"
                + " below the ones it already issued and can repeat them"), result::toString);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 1000, SnowflakeCodec.withEpoch(epoch), 4, 4, before, after);
    }

    static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
