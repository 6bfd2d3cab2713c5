package dev.snowid.agent;

import dev.snowid.agent.config.AgentConfigurationException;
import dev.snowid.agent.config.AgentSettings;
import dev.snowid.agent.config.Target;
import dev.snowid.agent.instrument.BootstrapBridge;
import dev.snowid.agent.instrument.PresetCoverage;
import dev.snowid.agent.instrument.StartUpWarmUp;
import dev.snowid.agent.instrument.TargetReport;
import dev.snowid.agent.instrument.TargetTransformer;
import dev.snowid.agent.runtime.AgentLog;
import dev.snowid.agent.runtime.AgentMonitor;
import dev.snowid.agent.runtime.AgentStartException;
import dev.snowid.agent.runtime.LeasedNode;
import dev.snowid.agent.runtime.RedirectedCalls;

import dev.snowid.LeaseWindow;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeGenerator;
import dev.snowid.internal.WarningCode;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

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
            if (!(e instanceof AgentConfigurationException) && !(e instanceof AgentStartException)) {
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
            AgentLog.warn(WarningCode.AGENT_ALREADY_RUNNING.tag("the agent is already running in this JVM; the second -javaagent is ignored"));
            return;
        }
        long startNanos = System.nanoTime();
        // What this start has done so far, undone in reverse if a later step fails: a failed attach
        // leaves no lease, no transformer and no ID source behind, so that a retry starts afresh.
        Deque<Undo> done = new ArrayDeque<>();
        try {
            AgentSettings settings = AgentSettings.fromEnvironment(arguments);
            StartUpWarmUp.startInBackground(settings.targets()); // the settings hold: what comes later gets a head start
            for (String warning : settings.warnings()) {
                AgentLog.warn(warning);
            }
            // Counted outside the unavailability policy: a call that waited and then got its ID is no refusal.
            AgentMonitor monitor;
            SnowflakeCodec issuing;
            if (settings.node() != null) {
                monitor = AgentMonitor.ofNode(settings.onUnavailable().guard(fixedNode(settings)), settings.node());
                issuing = settings.codec();
            } else {
                LeasedNode leased = LeasedNode.start(settings);
                done.push(new ReleaseLease(leased));
                monitor = AgentMonitor.ofLease(settings.onUnavailable().guard(leased), leased.client());
                issuing = leased.client().codec();
            }
            for (String shape : settings.presetShapeWarnings(issuing)) {
                AgentLog.warn(shape);
            }
            RedirectedCalls calls = new RedirectedCalls(settings.targets().size(), monitor);
            monitor.countIssuedIn(calls);
            Object bridgeKey = BootstrapBridge.install(instrumentation, calls.sources());
            done.push(new UninstallSources(bridgeKey));
            TargetReport report = redirect(instrumentation, settings.targets(), calls, done);
            if (settings.jmx()) {
                monitor.registerInBackground(); // last: nothing after it can fail and leave it registered
            }
            Runtime.getRuntime().addShutdownHook(report.atShutdown());
            started = true;
            AgentLog.info(AgentVersion.nameAndVersion() + " started in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms: "
                    + settings.summary(issuing));
        } catch (AgentConfigurationException e) {
            undo(done);
            AgentLog.error(e.getMessage());
            AgentLog.error(WarningCode.AGENT_NOT_STARTED.tag("the snowid agent did not start and no method was redirected: fix the configuration above"));
            throw e;
        } catch (AgentStartException e) {
            undo(done);
            AgentLog.error(e.getMessage());
            AgentLog.error(WarningCode.AGENT_NOT_STARTED.tag("the snowid agent did not start and no method was redirected"));
            throw e;
        } catch (RuntimeException | LinkageError e) {
            AgentLog.error(WarningCode.AGENT_NOT_STARTED.tag("the snowid agent could not start: " + e));
            undo(done);
            throw e;
        }
    }

    /** Undoes a failed start's steps, newest first; each one is tried whatever the others do. */
    private static void undo(Deque<Undo> done) {
        while (!done.isEmpty()) {
            Undo step = done.pop();
            try {
                step.run();
                AgentLog.warn(WarningCode.AGENT_NOT_STARTED.tag("the failed start " + step.what + "; attaching the agent again starts afresh"));
            } catch (RuntimeException | LinkageError failed) {
                AgentLog.error(WarningCode.START_NOT_UNDONE.tag("the failed start could not be undone fully (" + step.what + " failed: " + failed + ")"));
            }
        }
    }

    /** One step of a start, and how to take it back (named classes: no lambda on the start-up path). */
    private abstract static class Undo {
        final String what;

        Undo(String what) {
            this.what = what;
        }

        abstract void run();
    }

    private static final class ReleaseLease extends Undo {
        private final LeasedNode leased;

        ReleaseLease(LeasedNode leased) {
            super("released its lease" + (leased.client().currentLease().isPresent()
                    ? " on slot " + leased.client().currentLease().get().slot() : ""));
            this.leased = leased;
        }

        @Override
        void run() {
            leased.releaseNow();
        }
    }

    private static final class UninstallSources extends Undo {
        private final Object key;

        UninstallSources(Object key) {
            super("took the ID sources out of the bridge");
            this.key = key;
        }

        @Override
        void run() {
            BootstrapBridge.uninstall(key);
        }
    }

    private static final class RemoveTransformer extends Undo {
        private final Instrumentation instrumentation;
        private final TargetTransformer transformer;

        RemoveTransformer(Instrumentation instrumentation, TargetTransformer transformer) {
            super("removed its transformer");
            this.instrumentation = instrumentation;
            this.transformer = transformer;
        }

        @Override
        void run() {
            removeTransformer(instrumentation, transformer);
        }
    }

    private static LongSupplier fixedNode(AgentSettings settings) {
        return new FixedNode(SnowflakeGenerator.forSlot(settings.node())
                .window(LeaseWindow.UNBOUNDED)
                .codec(settings.codec())
                .build());
    }

    /** A node given by configuration: the operator vouches that no other generator uses it. */
    private static final class FixedNode implements LongSupplier {
        private final SnowflakeGenerator generator;

        FixedNode(SnowflakeGenerator generator) {
            this.generator = generator;
        }

        @Override
        public long getAsLong() {
            return generator.nextId();
        }
    }

    private static TargetReport redirect(Instrumentation instrumentation, List<Target> targets, RedirectedCalls calls,
            Deque<Undo> done) {
        TargetReport report = new TargetReport(targets, calls);
        PresetCoverage coverage = new PresetCoverage(targets);
        TargetTransformer transformer = new TargetTransformer(targets, coverage, report);
        instrumentation.addTransformer(transformer, true);
        done.push(new RemoveTransformer(instrumentation, transformer));
        // Classes loaded before the agent (agentmain, or loaded by another agent first) are retransformed.
        // One pass, by binary name: in premain nearly all of the ~1,000 are the JDK's own.
        List<Class<?>> loaded = new ArrayList<>();
        Set<String> loadedTargetClasses = new HashSet<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            String name = type.getName();
            coverage.loaded(name);
            if (transformer.isTargetClass(name)) {
                loadedTargetClasses.add(name);
                if (instrumentation.isModifiableClass(type)) {
                    loaded.add(type);
                }
            }
        }
        if (!loaded.isEmpty()) {
            try {
                instrumentation.retransformClasses(loaded.toArray(new Class<?>[0]));
            } catch (UnmodifiableClassException e) {
                AgentLog.error(WarningCode.REDIRECT_FAILED.tag("could not retransform already loaded targets " + loaded + ": " + e));
            }
        }
        report.noteMissingClasses(loadedTargetClasses);
        return report;
    }

    /**
     * Without the transformer, retransforming the targets already loaded restores their own
     * bodies; one that cannot be restored keeps calling the bridge, which then has no source and
     * throws: it fails closed, never issuing a made-up ID.
     */
    private static void removeTransformer(Instrumentation instrumentation, TargetTransformer transformer) {
        instrumentation.removeTransformer(transformer);
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (transformer.isTarget(type) && instrumentation.isModifiableClass(type)) {
                loaded.add(type);
            }
        }
        if (!loaded.isEmpty()) {
            try {
                instrumentation.retransformClasses(loaded.toArray(new Class<?>[0]));
            } catch (UnmodifiableClassException e) {
                throw new IllegalStateException("could not restore " + loaded + ": " + e, e);
            }
        }
    }
}
