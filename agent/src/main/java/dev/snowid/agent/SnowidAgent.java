package dev.snowid.agent;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;

import dev.snowid.LeaseWindow;
import dev.snowid.SnowflakeGenerator;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.dynamic.Nexus;

/**
 * {@code -javaagent:snowid-agent.jar}: reads {@link AgentSettings}, gets a node (fixed, or leased
 * from the lease API), puts the bridge on the bootstrap class loader and redirects the target
 * methods to it, including those of classes already loaded. Any configuration error stops the
 * JVM here, before the application has issued a single ID.
 */
public final class SnowidAgent {

    private static boolean started;

    private SnowidAgent() {
    }

    /**
     * On a configuration error (or any failure to start) the JVM exits with status 1 before
     * {@code main} runs. Exiting, rather than letting the exception out of premain, spares operators
     * the JVM's "FATAL ERROR in native method" abort: exit status 134 and, where core dumps are on,
     * a core file per failed start.
     */
    public static void premain(String arguments, Instrumentation instrumentation) {
        try {
            start(arguments, instrumentation);
        } catch (RuntimeException | LinkageError e) {
            if (!(e instanceof AgentConfigurationException)) {
                // Fail closed: without its agent the application would issue its legacy IDs.
                AgentLog.error("the snowid agent could not start, so the JVM does not either: " + e);
                e.printStackTrace();
            }
            try {
                System.exit(1);
            } catch (SecurityException denied) {
                throw e; // a security manager forbids exiting: the JVM still refuses to start
            }
        }
    }

    /**
     * Attaching at run time works the same way; classes already loaded are retransformed. A
     * configuration error fails the attach and leaves the running application untouched.
     */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        start(arguments, instrumentation);
    }

    private static synchronized void start(String arguments, Instrumentation instrumentation) {
        if (started) {
            AgentLog.warn("the agent is already running in this JVM; the second -javaagent is ignored");
            return;
        }
        long startNanos = System.nanoTime();
        try {
            AgentSettings settings = AgentSettings.fromEnvironment();
            for (String warning : settings.warnings()) {
                AgentLog.warn(warning);
            }
            if (arguments != null && !arguments.trim().isEmpty()) {
                AgentLog.warn("agent arguments '" + arguments + "' are ignored; configure with -D" + AgentSettings.TARGETS + "=… and friends");
            }
            LongSupplier generator = settings.node() != null ? fixedNode(settings) : LeasedNode.start(settings).generator();
            BootstrapBridge.install(instrumentation, settings.onUnavailable().guard(generator));
            TargetReport report = redirect(instrumentation, settings.targets());
            Runtime.getRuntime().addShutdownHook(new Thread(report::warnAboutUnmatched, "snowid-target-report"));
            started = true;
            AgentLog.info("started in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms: " + settings.summary());
        } catch (AgentConfigurationException e) {
            AgentLog.error(e.getMessage());
            AgentLog.error("the snowid agent did not start and no method was redirected: fix the configuration above");
            throw e;
        }
    }

    private static LongSupplier fixedNode(AgentSettings settings) {
        SnowflakeGenerator generator = SnowflakeGenerator.forSlot(settings.node())
                .window(LeaseWindow.UNBOUNDED)
                .codec(settings.codec())
                .build();
        return generator::nextId;
    }

    private static TargetReport redirect(Instrumentation instrumentation, List<Target> targets) {
        TargetReport report = new TargetReport(targets);
        TargetFilter filter = new TargetFilter(targets, () -> redirector(targets, report));
        instrumentation.addTransformer(filter, true);
        // Classes loaded before the agent (agentmain, or loaded by another agent first) are retransformed.
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (filter.isTarget(type) && instrumentation.isModifiableClass(type)) {
                loaded.add(type);
            }
        }
        if (!loaded.isEmpty()) {
            try {
                instrumentation.retransformClasses(loaded.toArray(new Class<?>[0]));
            } catch (UnmodifiableClassException e) {
                AgentLog.error("could not retransform already loaded targets " + loaded + ": " + e);
            }
        }
        report.noteMissingClasses(instrumentation);
        return report;
    }

    /** Byte Buddy's transformer for the target classes; built when the first target class is seen. */
    private static ClassFileTransformer redirector(List<Target> targets, TargetReport report) {
        String[] classNames = new String[targets.size()];
        for (int i = 0; i < classNames.length; i++) {
            classNames[i] = targets.get(i).className();
        }
        // Advice needs no initializer injection; disabling Byte Buddy's Nexus also keeps it from touching
        // sun.misc.Unsafe, which JDK 24+ warns about on stderr. (The property name is relocated with Byte Buddy.)
        System.setProperty(Nexus.PROPERTY, "true");
        return new AgentBuilder.Default()
                // Advice only rewrites method bodies, so classes that are already loaded can be retransformed.
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(new RedirectTransformer.Reporting(report))
                .ignore(nameStartsWith("dev.snowid.agent.shaded."))
                .type(namedOneOf(classNames))
                .transform(new RedirectTransformer(targets, report))
                .makeRaw();
    }
}
