package dev.snowid.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * The values of one front end's settings, read through its {@link SettingCatalogue}: one typed
 * read API over wherever the front end's values come from (environment, system properties, a
 * file), in the manner of OpenTelemetry's {@code ConfigProperties}. A front end asks
 * {@code values.get(SETTING)} and gets the parsed value or the default; it writes no parse code
 * of its own, and no check of what a setting {@link Setting#onlyWith only applies with}.
 *
 * <p>Each value is read once, when first asked for; {@link #checkAll()} reads the rest, so a bad
 * value stops the front end at start-up even when nothing asks for it yet.
 */
public final class SettingValues {

    /** Where a front end's values come from. */
    public interface Source {
        /** The text set for {@code setting} (under whichever of its names the front end reads); null or empty when unset. */
        String text(Setting<?> setting);
    }

    /** How a front end words a refusal: it names the setting as the user set it, never a secret's value. */
    public interface Refusals {
        /** {@code text} cannot be read: {@code reason} is the parser's, which says what is allowed. */
        RuntimeException invalid(Setting<?> setting, String text, String reason);

        /** Set where it does not apply: {@code onlyApplies} is "only applies to a leased node (snowid.lease.url)". */
        RuntimeException inapplicable(Setting<?> setting, String text, String onlyApplies);
    }

    private final SettingCatalogue catalogue;
    private final Source source;
    private final Refusals refusals;
    private final Map<Setting<?>, Object> read = new HashMap<>();

    private SettingValues(SettingCatalogue catalogue, Source source, Refusals refusals) {
        this.catalogue = catalogue;
        this.source = source;
        this.refusals = refusals;
    }

    public static SettingValues of(SettingCatalogue catalogue, Source source, Refusals refusals) {
        return new SettingValues(catalogue, source, refusals);
    }

    /** Reads every setting of the catalogue not read yet: the first bad one is refused. */
    public SettingValues checkAll() {
        for (Setting<?> setting : catalogue.settings()) {
            get(setting);
        }
        return this;
    }

    /**
     * {@code setting}'s value, or its default when unset; null when unset without a literal default.
     *
     * @throws RuntimeException from {@link Refusals}: the text cannot be read, or the setting does not apply here
     * @throws IllegalArgumentException {@code setting} is not in the catalogue (a mistake in the front end)
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting<T> setting) {
        if (!catalogue.settings().contains(setting)) {
            throw new IllegalArgumentException(setting + " is not a setting of " + catalogue.owner());
        }
        if (read.containsKey(setting)) {
            return (T) read.get(setting);
        }
        String text = text(setting);
        Setting.Dependency rule = setting.dependency();
        boolean checkFirst = rule != null && !rule.aloneAtDefault();
        if (checkFirst && text != null) {
            requireApplies(setting, text, rule);
        }
        T value;
        try {
            value = setting.read(text);
        } catch (IllegalArgumentException e) {
            // A parser quotes what it could not read: never a secret's value.
            String reason = setting.isSecret() && e.getMessage() != null ? e.getMessage().replace(text, SecretText.HIDDEN) : e.getMessage();
            throw refusals.invalid(setting, text, reason);
        }
        if (rule != null && !checkFirst && text != null && !value.equals(setting.read(null))) {
            requireApplies(setting, text, rule);
        }
        read.put(setting, value);
        return value;
    }

    /** Whether {@code setting} is set (to text that is not empty). */
    public boolean isSet(Setting<?> setting) {
        return text(setting) != null;
    }

    /** The text {@code setting} is set to, as set; null when unset. */
    public String text(Setting<?> setting) {
        String text = source.text(setting);
        return text == null || text.isEmpty() ? null : text;
    }

    private void requireApplies(Setting<?> setting, String text, Setting.Dependency rule) {
        boolean applies = rule.value() == null ? isSet(rule.required()) : rule.value().equals(get(rule.required()));
        if (!applies) {
            throw refusals.inapplicable(setting, text, "only applies " + rule.phrase());
        }
    }
}
