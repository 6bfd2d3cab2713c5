package dev.snowid.agent;

/**
 * A legacy method to redirect, written {@code a.b.C#method}: every method of that name
 * declared by exactly that class (any parameters, static or not) whose return type is
 * {@code long}, {@code Long} or {@code String}. Nested classes use the binary name, {@code a.b.Outer$Inner}.
 */
public final class Target {

    private final String className;
    private final String methodName;

    private Target(String className, String methodName) {
        this.className = className;
        this.methodName = methodName;
    }

    /** Parses {@code a.b.C#method}; {@code property} is only for the error message. */
    static Target parse(String text, String property) {
        String allowed = "expected <fully qualified class name>#<method name>, e.g. com.acme.Ids#next";
        int hash = text.indexOf('#');
        if (hash < 0 || hash != text.lastIndexOf('#')) {
            throw new AgentConfigurationException(property + ": '" + text + "' is not a target: " + allowed);
        }
        String className = text.substring(0, hash);
        String methodName = text.substring(hash + 1);
        String[] parts = className.split("\\.", -1);
        for (String part : parts) {
            if (!isJavaIdentifier(part)) {
                throw new AgentConfigurationException(property + ": '" + text + "' is not a target: class name '" + className
                        + "' is not a fully qualified Java class name; " + allowed);
            }
        }
        if (!isJavaIdentifier(methodName)) {
            throw new AgentConfigurationException(property + ": '" + text + "' is not a target: method name '" + methodName
                    + "' is not a Java method name (constructors cannot be redirected); " + allowed);
        }
        return new Target(className, methodName);
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
        return className + "#" + methodName;
    }
}
