package dev.snowid.agent.instrument;

import dev.snowid.agent.config.AgentProperties;
import dev.snowid.agent.config.Target;
import dev.snowid.agent.runtime.AgentLog;
import dev.snowid.agent.runtime.RedirectedCalls;
import dev.snowid.internal.WarningCode;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What became of each configured target: which methods were redirected in which class loader,
 * and why a target was not. Operators see one {@code [snowid]} line per redirected method, a
 * note at start-up for target classes the application class path does not have (a typo, or a
 * class from another loader), and at shutdown, per target, how many calls it answered with a
 * snowid ID, or a warning when it was never redirected.
 */
public final class TargetReport {

    private final List<Target> targets;
    private final RedirectedCalls calls;
    private final Set<Target> redirected = ConcurrentHashMap.newKeySet();
    private final Map<Target, String> problems = new ConcurrentHashMap<>();

    public TargetReport(List<Target> targets, RedirectedCalls calls) {
        this.targets = targets;
        this.calls = calls;
    }

    void redirected(Target target, String line) {
        redirected.add(target);
        AgentLog.info(line);
    }

    void cannotRedirect(Target target, String reason) {
        problems.put(target, reason);
        AgentLog.warn(WarningCode.TARGET_NOT_REDIRECTED.tag(target.describe() + " is not redirected: " + reason));
    }

    void failed(String className, ClassLoader loader, Throwable error) {
        AgentLog.error(WarningCode.REDIRECT_FAILED.tag("could not redirect methods of " + className + " in " + describe(loader)
                + "; they keep their original bodies: " + error));
    }

    /**
     * After start-up: notes for target classes neither loaded yet nor on the application class
     * path. Classes inside a Spring Boot executable jar's nested jars count as on it.
     *
     * @param loadedBefore the target classes loaded before the agent's transformer was added
     *     (binary names); those loaded since have been reported to this report by the transformer
     */
    public void noteMissingClasses(Set<String> loadedBefore) {
        Set<String> missing = new LinkedHashSet<>();
        Set<String> checked = new HashSet<>();
        for (Target target : targets) {
            String className = target.className();
            // Once per class: the first lookup of a resource through the system class loader searches every module of the JDK.
            if (!loadedBefore.contains(className) && !seenByTransformer(target) && checked.add(className)
                    && ClassLoader.getSystemResource(resource(className)) == null) {
                missing.add(resource(className));
            }
        }
        if (!missing.isEmpty()) {
            missing.removeAll(SpringBootJar.findOnClassPath(missing));
        }
        for (Target target : targets) {
            if (missing.contains(resource(target.className()))) {
                AgentLog.info("note: " + target.className() + " (of " + target.describe() + ") is not on the application class path;"
                        + " it is redirected if another class loader defines it, else check the name");
            }
        }
    }

    /** Whether the transformer has seen the target's class (redirected, or said why not): it is loaded. */
    private boolean seenByTransformer(Target target) {
        return redirected.contains(target) || problems.containsKey(target);
    }

    private static String resource(String className) {
        return className.replace('.', '/') + ".class";
    }

    public Thread atShutdown() {
        return new Thread("snowid-target-report") {
            @Override
            public void run() {
                reportAtShutdown();
            }
        };
    }

    /** At shutdown: per target, the calls answered with a snowid ID, or why it was never redirected. */
    void reportAtShutdown() {
        for (int i = 0; i < targets.size(); i++) {
            Target target = targets.get(i);
            if (redirected.contains(target)) {
                AgentLog.info("at shutdown: " + target.describe() + " answered " + calls.count(i) + " call(s) with snowid IDs");
            } else {
                String problem = problems.get(target);
                AgentLog.warn(problem != null ? WarningCode.TARGET_NOT_REDIRECTED.tag(target.describe() + " was never redirected: " + problem)
                        : WarningCode.TARGET_CLASS_NOT_FOUND.tag(target.describe() + " was never redirected: no class loader loaded "
                                + target.className() + " while this JVM ran; check " + AgentProperties.TARGETS));
            }
        }
    }

    static String describe(ClassLoader loader) {
        return loader == null ? "the bootstrap class loader"
                : loader.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(loader));
    }
}
