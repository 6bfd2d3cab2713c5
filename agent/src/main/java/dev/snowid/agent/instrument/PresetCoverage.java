package dev.snowid.agent.instrument;

import dev.snowid.agent.config.AgentProperties;
import dev.snowid.agent.config.Preset;
import dev.snowid.agent.config.Target;
import dev.snowid.agent.runtime.AgentLog;
import dev.snowid.internal.WarningCode;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Catches the silent partial redirect: a known generator library in use while the method its
 * IDs funnel into is not a target, so that the application issues IDs from two sources. Said at
 * once, when the class that shows it loads, naming the preset that covers the library:
 * <ul>
 * <li>some of the library's methods are targets but not its funnel (say {@code IdWorker#getId}):
 * the first class of its family to load;</li>
 * <li>none are: the class that declares the funnel, which loads only when the library's
 * generator is used (not for, say, Hutool's UUID helpers in the same {@code IdUtil}).</li>
 * </ul>
 * Once per library and JVM.
 */
public final class PresetCoverage {

    /**
     * Class name → the uncovered preset whose loading it shows, under both forms of the name: internal
     * ({@code a/b/C}, as the transformer gets it) and binary ({@code a.b.C}, as the scan of the classes
     * loaded before the agent gets it), so that neither converts a name per class. The forms cannot
     * collide: a binary name has no {@code /} and an internal one no {@code .}.
     */
    private final Map<String, Preset> watched = new HashMap<>();
    private final Set<Preset> partly = EnumSet.noneOf(Preset.class);
    private final Set<Preset> warned = Collections.newSetFromMap(new ConcurrentHashMap<Preset, Boolean>());

    public PresetCoverage(List<Target> targets) {
        for (Preset preset : Preset.values()) {
            if (targets.containsAll(preset.targets())) {
                continue;
            }
            for (Target target : targets) {
                if (preset.family().contains(target.className())) {
                    partly.add(preset);
                }
            }
            if (partly.contains(preset)) {
                for (String member : preset.family()) {
                    watch(member, preset);
                }
            } else {
                watch(preset.funnelClass(), preset);
            }
        }
    }

    private void watch(String binaryName, Preset preset) {
        watched.put(binaryName, preset);
        watched.put(binaryName.replace('.', '/'), preset);
    }

    /** A class was loaded (or is already, when attached later); {@code name} is internal ({@code a/b/C}) or binary ({@code a.b.C}). */
    public void loaded(String name) {
        String warning = warningOnLoad(name);
        if (warning != null) {
            AgentLog.warn(warning);
        }
    }

    /** The warning the loading of that class calls for, once per library; else null. */
    String warningOnLoad(String name) {
        Preset preset = watched.get(name);
        return preset != null && warned.add(preset) ? warning(preset, name.replace('/', '.')) : null;
    }

    private String warning(Preset preset, String className) {
        String funnel = preset.targets().get(0).toString();
        String add = "add the preset '" + preset.presetName() + "' to " + AgentProperties.TARGETS;
        if (partly.contains(preset)) {
            return WarningCode.LIBRARY_PARTLY_REDIRECTED.tag(className + " (" + preset.library() + ") was loaded, but only part of "
                    + preset.library() + " is redirected: " + funnel + ", which all of its IDs go through, is not a target, so "
                    + preset.paths() + " keep issuing " + preset.library() + "'s own IDs next to snowid's; " + add);
        }
        return WarningCode.LIBRARY_NOT_REDIRECTED.tag(className + " (" + preset.library() + "'s generator) was loaded and is not"
                + " redirected: IDs from " + preset.paths() + " come from " + preset.library() + "'s own node, not snowid's; if this"
                + " application stores them, " + add);
    }
}
