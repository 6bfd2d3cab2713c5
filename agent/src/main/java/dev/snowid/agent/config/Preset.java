package dev.snowid.agent.config;

import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.WarningCode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A widely used Java Snowflake generator that {@code snowid.targets} can name instead of its
 * methods. Each preset redirects the method every public ID path of the library funnels into
 * (read from the libraries' bytecode; docs/agent.md lists the versions), names the classes of
 * its family, so that a partial redirect is caught when one of them loads, and records the
 * epoch and bit layout the library issues with, so that the agent can warn when snowid's IDs
 * would have another shape.
 */
public enum Preset {

    HUTOOL("hutool", "Hutool",
            "cn.hutool.core.lang.Snowflake#nextId",
            // nextIdStr(), IdUtil.getSnowflake*(), IdUtil.createSnowflake() and SnowflakeGenerator.next() all call Snowflake.nextId().
            "new Snowflake(…), IdUtil.getSnowflake(…), IdUtil.getSnowflakeNextId(), IdUtil.getSnowflakeNextIdStr() and SnowflakeGenerator",
            SnowflakeCodec.TWITTER_EPOCH_MILLIS,
            "cn.hutool.core.lang.Snowflake", "cn.hutool.core.util.IdUtil", "cn.hutool.core.lang.generator.SnowflakeGenerator"),

    MYBATIS_PLUS("mybatis-plus", "MyBatis-Plus",
            "com.baomidou.mybatisplus.core.toolkit.Sequence#nextId",
            // IdWorker.getId*/getIdStr* go through the IdentifierGenerator, by default a DefaultIdentifierGenerator,
            // which @TableId(type = ASSIGN_ID) uses too; it wraps a Sequence.
            "IdWorker.getId(), IdWorker.getIdStr(), DefaultIdentifierGenerator (behind @TableId(type = ASSIGN_ID)) and new Sequence(…)",
            SnowflakeCodec.TWITTER_EPOCH_MILLIS,
            "com.baomidou.mybatisplus.core.toolkit.Sequence", "com.baomidou.mybatisplus.core.toolkit.IdWorker",
            "com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator");

    /**
     * Both libraries lay out their IDs as snowid does, checked in their bytecode: the ms since the
     * epoch shifted left by 22, the datacenter by 17, the worker by 12, a 12-bit sequence.
     */
    static final String SNOWID_LAYOUT = "41-bit ms | 5-bit datacenter | 5-bit machine | 12-bit sequence";

    private final String presetName;
    private final String library;
    private final Target funnel;
    private final String paths;
    private final long epochMillis;
    private final List<String> family;

    Preset(String presetName, String library, String funnel, String paths, long epochMillis, String... family) {
        this.presetName = presetName;
        this.library = library;
        this.funnel = Target.ofPreset(funnel, this);
        this.paths = paths;
        this.epochMillis = epochMillis;
        this.family = Collections.unmodifiableList(Arrays.asList(family));
    }

    /** The preset called {@code name} in {@code snowid.targets}, or null. */
    public static Preset named(String name) {
        for (Preset preset : values()) {
            if (preset.presetName.equals(name)) {
                return preset;
            }
        }
        return null;
    }

    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (Preset preset : values()) {
            names.add(preset.presetName);
        }
        return names;
    }

    public String presetName() {
        return presetName;
    }

    public String library() {
        return library;
    }

    /** The targets the preset stands for. */
    public List<Target> targets() {
        return Collections.singletonList(funnel);
    }

    /** The class that declares the funnel methods: loading it means the library's generator is in use. */
    public String funnelClass() {
        return funnel.className();
    }

    /** The classes of the library whose loading shows the application uses its IDs. */
    public List<String> family() {
        return family;
    }

    /** The public paths the funnel covers, for warnings. */
    public String paths() {
        return paths;
    }

    /**
     * A warning when snowid's IDs would have another shape than those the library issued so far,
     * or null. The layouts match (see {@link #SNOWID_LAYOUT}); the epoch (snowid.epoch's, or the
     * lease API's) may not.
     */
    String shapeWarning(SnowflakeCodec codec) {
        if (codec.epochMillis() == epochMillis) {
            return null;
        }
        String consequence = codec.epochMillis() > epochMillis
                ? "new IDs sort below the ones it already issued and can repeat them"
                : "new IDs jump far above the ones it already issued, and their timestamps decode differently";
        return WarningCode.PRESET_EPOCH_DIFFERS.tag("preset " + presetName + ": " + library + " issues its IDs with epoch " + epochMillis
                + " (" + SNOWID_LAYOUT + "), snowid with epoch " + codec.epochMillis() + ": the IDs change shape, " + consequence
                + "; keep " + epochMillis + " for an application with stored IDs (see docs/migration.md)");
    }
}
