package dev.snowid.lambda;

import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeasedGenerator;
import org.crac.Context;
import org.crac.Resource;

/**
 * SnapStart (CRaC) safety. A snapshot is restored into many execution environments at once,
 * so nothing in it may identify one holder: before the checkpoint the lease is released (the
 * slot is free at once), and after every restore the generator forgets whatever lease, owner
 * token and issuing state the snapshot still carries. Each clone then leases its own slot on
 * its first request, with a token drawn after the restore, and with the store's clock measured
 * anew (the skew seen before the snapshot was another machine's clock).
 */
final class SnapStartHooks implements Resource {

    private final LeasedGenerator generator;
    private final LeaseStore store;
    private final RequestLog log;

    SnapStartHooks(LeasedGenerator generator, LeaseStore store, RequestLog log) {
        this.generator = generator;
        this.store = store;
        this.log = log;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        try {
            generator.release();
            log.event("beforeCheckpoint", "lease released");
        } catch (RuntimeException e) {
            // Not fatal: afterRestore forgets the lease anyway; unreleased, it simply runs out.
            log.event("beforeCheckpoint", "lease not released (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); it runs out by itself");
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        generator.forget();
        store.forgetClockSkew();
        log.event("afterRestore", "lease, generator state and store clock skew forgotten; the next request leases a slot");
    }
}
