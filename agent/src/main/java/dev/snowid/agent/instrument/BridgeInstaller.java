package dev.snowid.agent.instrument;

import dev.snowid.agent.bootstrap.SnowidBridge;
import java.util.function.LongSupplier;

/**
 * Hands the ID sources (one per target) to the bridge. Loaded only after {@link BootstrapBridge} has put the
 * bridge on the bootstrap class loader, so its reference resolves to that copy (parent first);
 * a direct call rather than reflection, which would cost start-up time on JDK 18+.
 */
public final class BridgeInstaller {

    private BridgeInstaller() {
    }

    static Object install(LongSupplier[] perTarget) {
        if (SnowidBridge.class.getClassLoader() != null) {
            throw new IllegalStateException("the bridge resolved to " + SnowidBridge.class.getClassLoader()
                    + " instead of the bootstrap class loader");
        }
        return SnowidBridge.install(perTarget);
    }

    static void uninstall(Object key) {
        SnowidBridge.uninstall(key);
    }
}
