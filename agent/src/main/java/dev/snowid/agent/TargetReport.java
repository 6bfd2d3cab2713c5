package dev.snowid.agent;

import java.lang.instrument.Instrumentation;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What became of each configured target: which methods were redirected in which class loader,
 * and why a target was not. Operators see one {@code [snowid]} line per redirected method, a
 * note at start-up for target classes the application class path does not have (a typo, or a
 * class from another loader), and at shutdown a warning for every target never redirected.
 */
final class TargetReport {

    private final List<Target> targets;
    private final Set<Target> redirected = ConcurrentHashMap.newKeySet();
    private final Map<Target, String> problems = new ConcurrentHashMap<>();

    TargetReport(List<Target> targets) {
        this.targets = targets;
    }

    void redirected(Target target, String line) {
        redirected.add(target);
        AgentLog.info(line);
    }

    void cannotRedirect(Target target, String reason) {
        problems.put(target, reason);
        AgentLog.warn(target + " is not redirected: " + reason);
    }

    void failed(String className, ClassLoader loader, Throwable error) {
        AgentLog.error("could not redirect methods of " + className + " in " + describe(loader)
                + "; they keep their original bodies: " + error);
    }

    /** After start-up: notes for target classes neither loaded yet nor on the application class path. */
    void noteMissingClasses(Instrumentation instrumentation) {
        Set<String> targetClasses = new HashSet<>();
        for (Target target : targets) {
            targetClasses.add(target.className());
        }
        Set<String> seen = new HashSet<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (targetClasses.contains(type.getName())) {
                seen.add(type.getName());
            }
        }
        for (Target target : targets) {
            String resource = target.className().replace('.', '/') + ".class";
            if (!seen.contains(target.className()) && ClassLoader.getSystemResource(resource) == null) {
                AgentLog.info("note: " + target.className() + " (of " + target + ") is not on the application class path;"
                        + " it is redirected if another class loader defines it, else check the name");
            }
        }
    }

    Thread atShutdown() {
        return new Thread("snowid-target-report") {
            @Override
            public void run() {
                warnAboutUnmatched();
            }
        };
    }

    /** At shutdown: one warning per target that no class loader ever gave us to redirect. */
    void warnAboutUnmatched() {
        for (Target target : targets) {
            if (!redirected.contains(target)) {
                String problem = problems.get(target);
                AgentLog.warn(target + " was never redirected: " + (problem != null ? problem
                        : "no class loader loaded " + target.className() + " while this JVM ran; check " + AgentSettings.TARGETS));
            }
        }
    }

    static String describe(ClassLoader loader) {
        return loader == null ? "the bootstrap class loader"
                : loader.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(loader));
    }
}
