package dev.snowid.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One setting of a front end, declared once: the names it is read under, its default, what it
 * allows (drawn from the rule that owns the range), how its text is read, whether it is secret,
 * and what it means in one line. A front end's {@link SettingCatalogue} lists them; its docs table
 * is checked against them. Immutable: each method returns a changed copy.
 *
 * @param <T> what the text is read into
 */
public final class Setting<T> {

    /** Reads a setting's text; an {@link IllegalArgumentException} says what is wrong and what is allowed. */
    public interface Parser<T> {
        T parse(String text);
    }

    /** The text as typed, for a setting whose checks live with its reader. */
    private static final Parser<String> TEXT = new Parser<String>() {
        @Override
        public String parse(String text) {
            return text;
        }
    };

    /** {@code true} or {@code false}, exactly: a switch. */
    private static final Parser<Boolean> SWITCH = new Parser<Boolean>() {
        @Override
        public Boolean parse(String text) {
            if (text.equals("true") || text.equals("false")) {
                return Boolean.valueOf(text);
            }
            throw new IllegalArgumentException("is not a switch: allowed true or false");
        }
    };

    private final List<String> names;
    private final String defaultValue;
    private final String unsetMeans;
    private final String allowed;
    private final List<String> allowedValues;
    private final String description;
    private final boolean secret;
    private final Parser<T> parser;
    private final Dependency dependency;

    private Setting(List<String> names, String defaultValue, String unsetMeans, String allowed, List<String> allowedValues,
                    String description, boolean secret, Parser<T> parser, Dependency dependency) {
        this.names = Collections.unmodifiableList(new ArrayList<>(names));
        this.defaultValue = defaultValue;
        this.unsetMeans = unsetMeans;
        this.allowed = allowed;
        this.allowedValues = Collections.unmodifiableList(new ArrayList<>(allowedValues));
        this.description = description;
        this.secret = secret;
        this.parser = parser;
        this.dependency = dependency;
    }

    /** A setting read as text, under {@code name} (an environment variable, a property, a builder method). */
    public static Setting<String> named(String name) {
        return new Setting<>(Collections.singletonList(name), null, null, "", Collections.<String>emptyList(), "", false, TEXT, null);
    }

    /** The same, read by {@code parser}. */
    public <U> Setting<U> parsedBy(Parser<U> parser) {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, description, secret, parser, dependency);
    }

    /** The same, read as a whole number in {@code range}, which also says what is allowed. */
    public Setting<Long> in(NumberRange range) {
        return parsedBy(range).allowed(range.allowed(), Long.toString(range.min()), Long.toString(range.max()));
    }

    /** The same, a switch: {@code true} or {@code false}, which also says what is allowed. */
    public Setting<Boolean> asSwitch() {
        return parsedBy(SWITCH).allowed("true or false", "true", "false");
    }

    /**
     * The same setting (its type, default, what it allows, secrecy and meaning) as another front
     * end reads it, under {@code name} alone: a front end derives what it shares instead of
     * declaring it again. What it only applies with stays behind, with the front end that has it.
     */
    public Setting<T> under(String name) {
        return new Setting<>(Collections.singletonList(name), defaultValue, unsetMeans, allowed, allowedValues, description, secret,
                parser, null);
    }

    /** Further names it is read under, e.g. an agent property's environment variable. */
    public Setting<T> alsoNamed(String... more) {
        List<String> all = new ArrayList<>(names);
        all.addAll(Arrays.asList(more));
        return new Setting<>(all, defaultValue, unsetMeans, allowed, allowedValues, description, secret, parser, dependency);
    }

    /** The value it takes when unset, as it would be typed: read by the same parser. */
    public Setting<T> byDefault(String literal) {
        return new Setting<>(names, literal, null, allowed, allowedValues, description, secret, parser, dependency);
    }

    /** What happens when it is unset, in words, where no literal value stands for it ("what the API grants"). */
    public Setting<T> unsetMeans(String words) {
        return new Setting<>(names, null, words, allowed, allowedValues, description, secret, parser, dependency);
    }

    /** What may be set, in words, and the values a description of it must name (bounds, choices). */
    public Setting<T> allowed(String words, String... values) {
        return new Setting<>(names, defaultValue, unsetMeans, words, Arrays.asList(values), description, secret, parser, dependency);
    }

    /** What it means, in one line. */
    public Setting<T> means(String oneLine) {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, oneLine, secret, parser, dependency);
    }

    /** Its value is never shown in any message. */
    public Setting<T> secret() {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, description, true, parser, dependency);
    }

    /**
     * It only applies where {@code required} is set: set without it, it is refused with
     * "… only applies {@code phrase}", e.g. {@code "to a leased node (snowid.lease.url)"}.
     */
    public Setting<T> onlyWith(Setting<?> required, String phrase) {
        return withDependency(new Dependency(required, null, phrase, false));
    }

    /** It only applies where {@code required} reads {@code value}, as {@link #onlyWith(Setting, String)}. */
    public <U> Setting<T> onlyWith(Setting<U> required, U value, String phrase) {
        return withDependency(new Dependency(required, value, phrase, false));
    }

    /** Set to its default (a switch's false, the usual mode), it asks nothing of what it {@link #onlyWith only applies with}. */
    public Setting<T> aloneAtDefault() {
        return withDependency(new Dependency(dependency.required, dependency.value, dependency.phrase, true));
    }

    private Setting<T> withDependency(Dependency rule) {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, description, secret, parser, rule);
    }

    /** What it only applies with; null when it applies alone. */
    public Dependency dependency() {
        return dependency;
    }

    /** The name users type first: the environment variable, the property or the builder method. */
    public String name() {
        return names.get(0);
    }

    /** Every name it is read under, {@link #name()} first. */
    public List<String> names() {
        return names;
    }

    /** The default as it would be typed; null when there is none ({@link #unsetMeans()}). */
    public String defaultValue() {
        return defaultValue;
    }

    /** What happens when it is unset, in words; null when there is a literal default (or nothing happens). */
    public String unsetMeans() {
        return unsetMeans;
    }

    public String allowed() {
        return allowed;
    }

    /** The bounds or choices a description of it must name. */
    public List<String> allowedValues() {
        return allowedValues;
    }

    public String description() {
        return description;
    }

    public boolean isSecret() {
        return secret;
    }

    /**
     * {@code text} read, or the default when it is null or empty (an empty setting counts as unset);
     * null when it is unset and has no literal default.
     *
     * @throws IllegalArgumentException from the parser: what is wrong with the text, what is allowed
     */
    public T read(String text) {
        if (text == null || text.isEmpty()) {
            return defaultValue == null ? null : parser.parse(defaultValue);
        }
        return parser.parse(text);
    }

    /**
     * {@code name='value'}, or {@code name=<secret, not shown>}: the one way a message shows a
     * setting's value; a URL's user information is never shown ({@link SecretText}).
     */
    public String shown(String name, String value) {
        return secret ? name + "=<secret, not shown>" : name + "='" + SecretText.withUrlSecretsHidden(value) + "'";
    }

    /** A setting that only applies with another (or with a value of another): declared, not parsed for. */
    public static final class Dependency {
        private final Setting<?> required;
        private final Object value;
        private final String phrase;
        private final boolean aloneAtDefault;

        private Dependency(Setting<?> required, Object value, String phrase, boolean aloneAtDefault) {
            this.required = required;
            this.value = value;
            this.phrase = phrase;
            this.aloneAtDefault = aloneAtDefault;
        }

        /** The setting it applies with. */
        public Setting<?> required() {
            return required;
        }

        /** The value {@link #required()} must read; null: any, as long as it is set. */
        public Object value() {
            return value;
        }

        /** What follows "only applies": {@code "to a leased node (snowid.lease.url)"}. */
        public String phrase() {
            return phrase;
        }

        /** Whether, set to its default, the setting asks nothing. */
        public boolean aloneAtDefault() {
            return aloneAtDefault;
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
