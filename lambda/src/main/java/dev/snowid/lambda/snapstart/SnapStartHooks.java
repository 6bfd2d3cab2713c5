package dev.snowid.lambda.snapstart;

import com.amazonaws.services.lambda.runtime.logging.LogLevel;
import dev.snowid.internal.WarningCode;
import dev.snowid.lambda.region.RegionalStack;
import dev.snowid.lambda.telemetry.RequestLog;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeasedGenerator;
import java.util.concurrent.atomic.AtomicBoolean;
import org.crac.Context;
import org.crac.Resource;

/**
 * SnapStart (CRaC) safety. A snapshot is restored into many execution environments at once,
 * so nothing in it may identify one holder: before the checkpoint the lease is released (the
 * slot is free at once), and after every restore the generator forgets whatever lease, owner
 * token and issuing state the snapshot still carries. Each clone then leases its own slot on
 * its first request, with a token drawn after the restore, and with the store's clock measured
 * anew (the skew seen before the snapshot was another machine's clock), and with the claim
 * registry asked again (a confirmation is the process's own, and a restore is another process).
 *
 * <p>Before the checkpoint the request path is also primed ({@link Priming}), and after a restore
 * the next request counts as a cold start.
 */
public final class SnapStartHooks implements Resource {

    private final LeasedGenerator generator;
    private final LeaseStore store;
    private final RequestLog log;
    private final AtomicBoolean coldStart;
    private final Priming priming;
    private final RegionalStack region;

    public SnapStartHooks(LeasedGenerator generator, LeaseStore store, RegionalStack region, RequestLog log, AtomicBoolean coldStart,
            Priming priming) {
        this.generator = generator;
        this.region = region;
        this.store = store;
        this.log = log;
        this.coldStart = coldStart;
        this.priming = priming;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        try {
            generator.release();
            log.event(LogLevel.INFO, "beforeCheckpoint: lease released", null);
        } catch (RuntimeException e) {
            // Not fatal: afterRestore forgets the lease anyway; unreleased, it simply runs out.
            log.event(LogLevel.WARN, WarningCode.LEASE_RELEASE_FAILED.tag("beforeCheckpoint: lease not released; it runs out by itself"), e);
        }
        try {
            log.event(LogLevel.INFO, "beforeCheckpoint: primed " + priming.run(), null);
        } catch (RuntimeException e) {
            // Priming only saves time on the first request; a snapshot without it is still correct.
            log.event(LogLevel.WARN, WarningCode.PRIMING_FAILED.tag("beforeCheckpoint: priming failed; the first requests load what it would have"),
                    e);
        }
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        generator.forget();
        store.forgetClockSkew();
        region.forgetConfirmation();
        coldStart.set(true);
        log.event(LogLevel.INFO, "afterRestore: lease, generator state, store clock skew and the registry's confirmation forgotten;"
                + " the next request leases a slot", null);
    }
}
