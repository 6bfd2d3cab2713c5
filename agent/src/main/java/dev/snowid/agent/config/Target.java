package dev.snowid.agent.config;

/**
 * A legacy method to redirect, written {@code a.b.C#method}: every method of that name declared by
 * exactly that class (any parameters, static or not, bridge methods aside). Nested classes use the
 * binary name, {@code a.b.Outer$Inner}. A suffix {@code :long} or {@code :string} says which value
 * a method returns whose type allows both ({@code Object}, {@code Serializable}, {@code Comparable});
 * without one, such a method returns a {@code Long}. Targets that come from a {@link Preset} name it.
 */
public final class Target {

    /** The value a target's suffix asks for. */
    public enum Kind {
        /** The ID as a {@code long}, boxed where the return type is a reference. */
        LONG(":long"),
        /** The ID as a decimal {@code String}. */
        STRING(":string");

        public final String suffix;

        Kind(String suffix) {
            this.suffix = suffix;
        }
    }

    static final String SYNTAX = "<fully qualified class name>#<method name>[:long|:string]";

    private final String className;
    private final String methodName;
    private final Kind kind;
    private final Preset preset;

    private Target(String className, String methodName, Kind kind, Preset preset) {
        this.className = className;
        this.methodName = methodName;
        this.kind = kind;
        this.preset = preset;
    }

    /** A target of a preset: no suffix, the types of known libraries need none. */
    static Target ofPreset(String classAndMethod, Preset preset) {
        int hash = classAndMethod.indexOf('#');
        return new Target(classAndMethod.substring(0, hash), classAndMethod.substring(hash + 1), null, preset);
    }

    /** Parses {@code a.b.C#method[:kind]}; {@code setting} is only for the error message. */
    public static Target parse(String text, String setting) {
        int hash = text.indexOf('#');
        if (hash < 0 || hash != text.lastIndexOf('#')) {
            throw new AgentConfigurationException(setting + ": '" + text + "' is not a target: " + allowed());
        }
        String className = text.substring(0, hash);
        String method = text.substring(hash + 1);
        Kind kind = null;
        int colon = method.indexOf(':');
        if (colon >= 0) {
            kind = parseKind(method.substring(colon), text, setting);
            method = method.substring(0, colon);
        }
        for (String part : className.split("\\.", -1)) {
            if (!isJavaIdentifier(part)) {
                throw new AgentConfigurationException(setting + ": '" + text + "' is not a target: class name '" + className
                        + "' is not a fully qualified Java class name; " + allowed());
            }
        }
        if (!isJavaIdentifier(method)) {
            throw new AgentConfigurationException(setting + ": '" + text + "' is not a target: method name '" + method
                    + "' is not a Java method name (constructors cannot be redirected); " + allowed());
        }
        return new Target(className, method, kind, null);
    }

    /** For the error messages only: built when one is thrown, not for every target parsed at start-up. */
    private static String allowed() {
        return "expected " + SYNTAX + ", e.g. com.acme.Ids#next or com.acme.Ids#next:string, or a preset: " + Preset.names();
    }

    private static Kind parseKind(String suffix, String text, String setting) {
        for (Kind kind : Kind.values()) {
            if (kind.suffix.equals(suffix)) {
                return kind;
            }
        }
        throw new AgentConfigurationException(setting + ": '" + text + "' has an unknown kind '" + suffix
                + "': allowed :long (a Long, the default) or :string (the ID as a decimal String), for methods whose return type"
                + " allows both (Object, Serializable, Comparable), e.g. com.acme.Ids#next:string");
    }

    private static boolean isJavaIdentifier(String text) {
        if (text.isEmpty() || !Character.isJavaIdentifierStart(text.charAt(0))) {
            return false;
        }
        for (int i = 1; i < text.length(); i++) {
            if (!Character.isJavaIdentifierPart(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    public String className() {
        return className;
    }

    public String methodName() {
        return methodName;
    }

    /** The kind the suffix asked for, or null when there was none. */
    public Kind kind() {
        return kind;
    }

    /** The preset this target comes from, or null when it was named explicitly. */
    public Preset preset() {
        return preset;
    }

    /** {@code a.b.C#method (preset hutool)}: for the lines operators read. */
    public String describe() {
        return toString() + (preset != null ? " (preset " + preset.presetName() + ")" : "");
    }

    /** The same method, whatever the kind or preset: a method is redirected once. */
    @Override
    public boolean equals(Object other) {
        return other instanceof Target && ((Target) other).className.equals(className)
                && ((Target) other).methodName.equals(methodName);
    }

    @Override
    public int hashCode() {
        return className.hashCode() * 31 + methodName.hashCode();
    }

    @Override
    public String toString() {
        return className + "#" + methodName + (kind != null ? kind.suffix : "");
    }
}
