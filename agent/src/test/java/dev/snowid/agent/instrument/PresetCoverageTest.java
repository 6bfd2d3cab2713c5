package dev.snowid.agent.instrument;

import dev.snowid.agent.config.Preset;
import dev.snowid.agent.config.Target;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** When the loading of a library's class calls for a warning, and when it does not. */
class PresetCoverageTest {

    private static PresetCoverage coverage(String... targets) {
        List<Target> parsed = new ArrayList<>();
        for (String target : targets) {
            Preset preset = Preset.named(target);
            if (preset != null) {
                parsed.addAll(preset.targets());
            } else {
                parsed.add(Target.parse(target, "snowid.targets"));
            }
        }
        return new PresetCoverage(parsed);
    }

    @Test
    void aCoveredLibraryIsNeverWarnedAbout() {
        PresetCoverage coverage = coverage("hutool", "com.acme.Ids#next", "cn.hutool.core.util.IdUtil#getSnowflakeNextId");
        assertNull(coverage.warningOnLoad("cn/hutool/core/util/IdUtil"));
        assertNull(coverage.warningOnLoad("cn/hutool/core/lang/Snowflake"));
        assertNull(coverage("cn.hutool.core.lang.Snowflake#nextId").warningOnLoad("cn/hutool/core/lang/Snowflake"),
                "the funnel named explicitly covers it as the preset does");
    }

    @Test
    void aPartlyTargetedLibraryIsWarnedAboutAtItsFirstClassOnce() {
        PresetCoverage coverage = coverage("com.baomidou.mybatisplus.core.toolkit.IdWorker#getId");
        String warning = coverage.warningOnLoad("com/baomidou/mybatisplus/core/incrementer/DefaultIdentifierGenerator");
        assertTrue(warning.startsWith("[library_partly_redirected] com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator"
                + " (MyBatis-Plus) was loaded, but only"
                + " part of MyBatis-Plus is redirected: com.baomidou.mybatisplus.core.toolkit.Sequence#nextId"), warning);
        assertTrue(warning.endsWith("add the preset 'mybatis-plus' to snowid.targets"), warning);
        assertNull(coverage.warningOnLoad("com/baomidou/mybatisplus/core/toolkit/Sequence"), "once per library");
        assertNull(coverage.warningOnLoad("com/acme/Other"));
    }

    @Test
    void anUntargetedLibraryIsWarnedAboutOnlyWhenItsGeneratorLoads() {
        PresetCoverage coverage = coverage("com.acme.Ids#next");
        assertNull(coverage.warningOnLoad("cn/hutool/core/util/IdUtil"), "IdUtil alone may be used for UUIDs");
        String warning = coverage.warningOnLoad("cn/hutool/core/lang/Snowflake");
        assertTrue(warning.startsWith("[library_not_redirected] cn.hutool.core.lang.Snowflake (Hutool's generator) was loaded and is not redirected"), warning);
        assertTrue(warning.endsWith("add the preset 'hutool' to snowid.targets"), warning);
        assertTrue(coverage.warningOnLoad("com/baomidou/mybatisplus/core/toolkit/Sequence").contains("MyBatis-Plus's generator"),
                "each library on its own");
    }

    /** The scan of classes loaded before the agent gives binary names ({@code a.b.C}), the transformer internal ones. */
    @Test
    void aBinaryNameIsWarnedAboutAsTheInternalNameIsOncePerLibrary() {
        PresetCoverage coverage = coverage("com.acme.Ids#next");
        assertNull(coverage.warningOnLoad("cn.hutool.core.util.IdUtil"));
        String warning = coverage.warningOnLoad("cn.hutool.core.lang.Snowflake");
        assertTrue(warning.startsWith("[library_not_redirected] cn.hutool.core.lang.Snowflake (Hutool's generator) was loaded and is not redirected"), warning);
        assertNull(coverage.warningOnLoad("cn/hutool/core/lang/Snowflake"), "once per library, whichever form of its name came first");
        assertNull(coverage.warningOnLoad("cn.hutool.core.lang"), "a package is no class");
    }
}
