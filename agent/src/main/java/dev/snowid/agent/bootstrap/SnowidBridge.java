package dev.snowid.agent.bootstrap;

import java.util.function.LongSupplier;

/**
 * The one agent class on the bootstrap class loader. A redirected method's body calls these
 * static methods with its target's index; since every class loader can see bootstrap classes,
 * that works for targets in any class loader, while the generator, ASM and everything else stay
 * with the agent jar on the system class loader (relocated under {@code dev.snowid.agent.shaded},
 * so they cannot clash with the application's). Each target has its own source (the same generator, counting
 * that target's calls). Keep it tiny and free of dependencies beyond {@code java.*}: whatever it
 * references must be on the bootstrap class path too.
 */
public final class SnowidBridge {

    private static volatile LongSupplier[] sources;
    /** Who installed the sources: only that caller may take them out again (a failed start undoing itself). */
    private static Object installedBy;

    private SnowidBridge() {
    }

    /**
     * Called once by the agent at start-up, one source per target; a second call (anyone else's) is refused.
     *
     * @return the key that {@link #uninstall(Object)} needs
     */
    public static synchronized Object install(LongSupplier[] perTarget) {
        if (perTarget == null || perTarget.length == 0) {
            throw new IllegalArgumentException("no ID sources given");
        }
        for (LongSupplier source : perTarget) {
            if (source == null) {
                throw new IllegalArgumentException("an ID source is missing");
            }
        }
        if (sources != null) {
            throw new IllegalStateException("[snowid] ID sources are already installed; the agent installs them once");
        }
        sources = perTarget.clone();
        installedBy = new Object();
        return installedBy;
    }

    /**
     * Takes the sources out again, for a start that failed after installing them (so that a retried
     * attach can install its own); only with the key {@link #install} returned. Afterwards a
     * redirected method throws rather than issue an ID.
     */
    public static synchronized void uninstall(Object key) {
        if (key == null || key != installedBy) {
            throw new IllegalStateException("[snowid] only the start that installed the ID sources may take them out");
        }
        sources = null;
        installedBy = null;
    }

    public static long nextId(int target) {
        LongSupplier[] current = sources;
        if (current == null) {
            // Only reachable if a class was transformed before install(): never issue a made-up ID.
            throw new IllegalStateException("[snowid] no ID source installed yet: the snowid agent did not finish starting");
        }
        return current[target].getAsLong();
    }

    public static Long nextIdBoxed(int target) {
        return Long.valueOf(nextId(target));
    }

    public static String nextIdString(int target) {
        return Long.toString(nextId(target));
    }
}
