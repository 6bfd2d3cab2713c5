package dev.snowid.client;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * A client's CRaC resource: {@link SnowidClient#suspend()} before a checkpoint, {@link SnowidClient#resume()}
 * after every restore (AWS Lambda SnapStart runs these hooks). A snapshot is restored into many JVMs
 * at once, so none of them may find the lease in it: each leases its own slot after the restore.
 * The one class of the client that names {@code org.crac} (an optional dependency): loaded only
 * when it is on the class path. On a JVM without CRaC support, org.crac registers the resource and
 * never calls it: no checkpoint is ever taken there.
 */
final class SnapshotHooks implements Resource {

    private final SnowidClient client;

    private SnapshotHooks(SnowidClient client) {
        this.client = client;
    }

    /** Registers hooks for {@code client} with the global CRaC context; the client keeps what this returns (held weakly there). */
    static Object register(SnowidClient client) {
        SnapshotHooks hooks = new SnapshotHooks(client);
        Core.getGlobalContext().register(hooks);
        return hooks;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        client.suspend();
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        client.resume();
    }

    @Override
    public String toString() {
        return "snowid client lease hooks";
    }
}
