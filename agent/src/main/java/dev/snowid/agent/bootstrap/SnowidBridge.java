package dev.snowid.agent.bootstrap;

import java.util.function.LongSupplier;

/**
 * The one agent class on the bootstrap class loader. A redirected method's body, rewritten by
 * the agent, calls these static methods; since every class loader can see bootstrap classes,
 * that works for targets in any class loader, while the generator, ASM and everything else stay
 * inside the agent's own loader. Keep it tiny and free of dependencies beyond {@code java.*}:
 * whatever it references must be on the bootstrap class path too.
 */
public final class SnowidBridge {

    private static volatile LongSupplier source;

    private SnowidBridge() {
    }

    /** Called once by the agent at start-up; a second call (anyone else's) is refused. */
    public static synchronized void install(LongSupplier idSource) {
        if (idSource == null) {
            throw new IllegalArgumentException("no ID source given");
        }
        if (source != null) {
            throw new IllegalStateException("[snowid] an ID source is already installed; the agent installs exactly one");
        }
        source = idSource;
    }

    public static boolean isInstalled() {
        return source != null;
    }

    public static long nextId() {
        LongSupplier current = source;
        if (current == null) {
            // Only reachable if a class was transformed before install(): never issue a made-up ID.
            throw new IllegalStateException("[snowid] no ID source installed yet: the snowid agent did not finish starting");
        }
        return current.getAsLong();
    }

    public static Long nextIdBoxed() {
        return Long.valueOf(nextId());
    }

    public static String nextIdString() {
        return Long.toString(nextId());
    }
}
