package dev.snowid.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every setting of one front end (the function, the local runner, the agent, its CLI, the client
 * builder, the Spring Boot starter), each declared once as a {@link Setting}. The one home of the
 * unknown-name warning ({@link WarningCode#UNKNOWN_SETTING}) and its closest-name suggestion ({@link ClosestName}), and of hiding a
 * secret's value: every front end warns and shows values through here.
 */
public final class SettingCatalogue {

    private final String owner;
    private final List<Setting<?>> settings;
    /** Names this front end does not read, with what to use instead (another front end's setting). */
    private final Map<String, String> hints;

    private SettingCatalogue(String owner, List<Setting<?>> settings, Map<String, String> hints) {
        this.owner = owner;
        this.settings = Collections.unmodifiableList(new ArrayList<>(settings));
        this.hints = Collections.unmodifiableMap(new LinkedHashMap<>(hints));
        Set<String> seen = new LinkedHashSet<>();
        for (String name : names()) {
            if (!seen.add(name)) {
                throw new IllegalArgumentException(owner + " declares " + name + " twice");
            }
        }
    }

    /** @param owner who reads them, for messages: "the function", "the agent" */
    public static SettingCatalogue of(String owner, Setting<?>... settings) {
        return new SettingCatalogue(owner, Arrays.asList(settings), Collections.<String, String>emptyMap());
    }

    /** The same, where a warning about the unknown {@code name} says {@code hint} (e.g. what to set instead). */
    public SettingCatalogue withHint(String name, String hint) {
        Map<String, String> more = new LinkedHashMap<>(hints);
        more.put(name, hint);
        return new SettingCatalogue(owner, settings, more);
    }

    /** This front end's settings and {@code others}' (a process that reads both), under {@code owner}. */
    public SettingCatalogue with(String owner, SettingCatalogue others) {
        List<Setting<?>> all = new ArrayList<>(settings);
        all.addAll(others.settings);
        Map<String, String> allHints = new LinkedHashMap<>(others.hints);
        allHints.putAll(hints);
        return new SettingCatalogue(owner, all, allHints);
    }

    public String owner() {
        return owner;
    }

    public List<Setting<?>> settings() {
        return settings;
    }

    /** Every name of every setting, in declaration order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (Setting<?> setting : settings) {
            names.addAll(setting.names());
        }
        return Collections.unmodifiableList(names);
    }

    /** The setting read under {@code name}; null when none is. */
    public Setting<?> setting(String name) {
        for (Setting<?> setting : settings) {
            if (setting.names().contains(name)) {
                return setting;
            }
        }
        return null;
    }

    public boolean reads(String name) {
        return setting(name) != null;
    }

    /**
     * One warning per name of {@code present} that starts with {@code prefix} and that neither this
     * front end nor {@code readElsewhere} reads, sorted: a typo would otherwise keep a default
     * silently. Suggestions are drawn from {@code candidates} (names of the same kind as
     * {@code present}'s) and {@code readElsewhere}.
     *
     * @param where what the names are, e.g. "environment variable", "system property"
     */
    public List<String> unknownNames(String where, Collection<String> present, String prefix, Collection<String> candidates,
                                     Collection<String> readElsewhere) {
        List<String> known = new ArrayList<>(candidates);
        known.addAll(readElsewhere);
        List<String> warnings = new ArrayList<>();
        for (String name : new TreeSet<>(present)) {
            if (name.startsWith(prefix) && !reads(name) && !readElsewhere.contains(name)) {
                warnings.add(unknown(where, name, known, candidates));
            }
        }
        return Collections.unmodifiableList(warnings);
    }

    /** As above, with every name of this catalogue as a candidate and nothing read elsewhere. */
    public List<String> unknownNames(String where, Collection<String> present, String prefix) {
        return unknownNames(where, present, prefix, names(), Collections.<String>emptyList());
    }

    /**
     * {@code "[unknown_setting] environment variable SNOWID_PROT is not a setting of the local runner
     * and is ignored; did you mean `SNOWID_PORT`?"}: the hint for the name, else the closest of
     * {@code candidates}, else the list of what this front end reads.
     */
    public String unknown(String where, String name, Collection<String> candidates) {
        return unknown(where, name, candidates, candidates);
    }

    private String unknown(String where, String name, Collection<String> suggested, Collection<String> listed) {
        String hint = hints.get(name);
        String closest = ClosestName.among(name, suggested);
        return WarningCode.UNKNOWN_SETTING.tag(where + " " + name + " is not a setting of " + owner + " and is ignored; "
                + (hint != null ? hint : closest != null ? "did you mean `" + closest + "`?" : owner + " reads " + listed));
    }

    /** The known name {@code typed} probably meant; null when none of {@code candidates} is close. */
    public String closest(String typed, Collection<String> candidates) {
        return ClosestName.among(typed, candidates);
    }

    /**
     * {@code name='value'}, with a secret's value hidden: the setting's own, and that of an unknown
     * name unless its closest known name is a setting that is not secret and the name itself does
     * not sound secret (a typo of the secret's name holds the secret; so may any name nobody
     * declared, {@code SNOWID_LEASE_TOKEN}).
     */
    public String shown(String name, String value) {
        Setting<?> setting = setting(name);
        if (setting != null) {
            return setting.shown(name, value);
        }
        String closest = ClosestName.among(name, names());
        Setting<?> meant = closest == null ? null : setting(closest);
        if (meant == null || meant.isSecret() || SecretText.soundsSecret(name)) {
            return name + "=" + SecretText.HIDDEN;
        }
        return meant.shown(name, value);
    }
}
