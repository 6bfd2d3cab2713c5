package dev.snowid.testing.crac;

import java.util.ArrayList;
import java.util.List;

/**
 * What org.crac calls: the global context and a checkpoint followed at once by a restore. Tests
 * call {@code org.crac.Core.checkpointRestore()}, as an application would, and read
 * {@link #registered()} to see who registered.
 */
public final class Core {

    /** The value of {@code org.crac.Core.Compat} that selects this implementation. */
    public static final String COMPAT = "dev.snowid.testing.crac";

    private static final Context<Resource> GLOBAL = new Context<>();

    private Core() {
    }

    public static Context<Resource> getGlobalContext() {
        return GLOBAL;
    }

    /** Every registered resource's hooks: before the checkpoint, newest first, then after the restore, oldest first. */
    public static void checkpointRestore() throws CheckpointException, RestoreException {
        GLOBAL.beforeCheckpoint(null);
        GLOBAL.afterRestore(null);
    }

    /**
     * What was registered so far and is still alive, as each resource names itself (org.crac's
     * wrapper shows the resource's own toString; it holds the resource weakly, and fails to name
     * one already collected).
     */
    public static List<String> registered() {
        List<String> names = new ArrayList<>();
        for (Resource resource : GLOBAL.registered()) {
            try {
                names.add(resource.toString());
            } catch (NullPointerException collected) {
                // gone: org.crac skips it at a checkpoint too
            }
        }
        return names;
    }
}
