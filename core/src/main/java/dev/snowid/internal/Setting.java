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

    private final List<String> names;
    private final String defaultValue;
    private final String unsetMeans;
    private final String allowed;
    private final List<String> allowedValues;
    private final String description;
    private final boolean secret;
    private final Parser<T> parser;

    private Setting(List<String> names, String defaultValue, String unsetMeans, String allowed, List<String> allowedValues,
                    String description, boolean secret, Parser<T> parser) {
        this.names = Collections.unmodifiableList(new ArrayList<>(names));
        this.defaultValue = defaultValue;
        this.unsetMeans = unsetMeans;
        this.allowed = allowed;
        this.allowedValues = Collections.unmodifiableList(new ArrayList<>(allowedValues));
        this.description = description;
        this.secret = secret;
        this.parser = parser;
    }

    /** A setting read as text, under {@code name} (an environment variable, a property, a builder method). */
    public static Setting<String> named(String name) {
        return new Setting<>(Collections.singletonList(name), null, null, "", Collections.<String>emptyList(), "", false, TEXT);
    }

    /** The same, read by {@code parser}. */
    public <U> Setting<U> parsedBy(Parser<U> parser) {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, description, secret, parser);
    }

    /** The same, read as a whole number in {@code range}, which also says what is allowed. */
    public Setting<Long> in(NumberRange range) {
        return parsedBy(range).allowed(range.allowed(), Long.toString(range.min()), Long.toString(range.max()));
    }

    /** Further names it is read under, e.g. an agent property's environment variable. */
    public Setting<T> alsoNamed(String... more) {
        List<String> all = new ArrayList<>(names);
        all.addAll(Arrays.asList(more));
        return new Setting<>(all, defaultValue, unsetMeans, allowed, allowedValues, description, secret, parser);
    }

    /** The value it takes when unset, as it would be typed: read by the same parser. */
    public Setting<T> byDefault(String literal) {
        return new Setting<>(names, literal, null, allowed, allowedValues, description, secret, parser);
    }

    /** What happens when it is unset, in words, where no literal value stands for it ("what the API grants"). */
    public Setting<T> unsetMeans(String words) {
        return new Setting<>(names, null, words, allowed, allowedValues, description, secret, parser);
    }

    /** What may be set, in words, and the values a description of it must name (bounds, choices). */
    public Setting<T> allowed(String words, String... values) {
        return new Setting<>(names, defaultValue, unsetMeans, words, Arrays.asList(values), description, secret, parser);
    }

    /** What it means, in one line. */
    public Setting<T> means(String oneLine) {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, oneLine, secret, parser);
    }

    /** Its value is never shown in any message. */
    public Setting<T> secret() {
        return new Setting<>(names, defaultValue, unsetMeans, allowed, allowedValues, description, true, parser);
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

    @Override
    public String toString() {
        return name();
    }
}
