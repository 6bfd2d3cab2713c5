package dev.snowid.lambda.telemetry;

import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;
import dev.snowid.protocol.LeaseAudit;

/**
 * Where lease outcomes are counted for the request being handled. A Lambda Managed Instances
 * environment handles many requests at once, each on its own thread, and a lease call runs on the
 * thread of the request that makes it, so the request's {@link LeaseActivity} is the thread's,
 * set by {@link #begin()} and cleared by {@link #end()}; outside a request (a SnapStart hook,
 * shutdown) outcomes go to one that nobody reads.
 *
 * <p>Outcomes arrive as events only: the function's own lease as the generator's
 * {@link LeaseEvents} ({@link #counting}), the lease routes' as the {@link LeaseAudit} lines they
 * write ({@link #routeOutcome}). The lease-table calls and occupancy come from {@link MeteredLeaseStore}.
 */
public final class LeaseMeter {

    /** Per thread: one request's activity must never count another's calls (nor be cleared by its end). */
    private final ThreadLocal<LeaseActivity> current = ThreadLocal.withInitial(LeaseActivity::new);

    /** Starts counting a request on this thread; its activity is what the request's metrics read. */
    public LeaseActivity begin() {
        LeaseActivity activity = new LeaseActivity();
        current.set(activity);
        return activity;
    }

    /** Stops counting the request on this thread. */
    public void end() {
        current.remove();
    }

    LeaseActivity current() {
        return current.get();
    }

    /** The generator's events for {@code holder}: counted here, then passed on to {@code next} (the audit lines). */
    public LeaseEvents counting(LeaseHolder holder, LeaseEvents next) {
        return new LeaseEvents() {
            @Override
            public void granted(Lease lease) {
                current().acquired(holder);
                next.granted(lease);
            }

            @Override
            public void renewed(Lease lease) {
                LeaseActivity activity = current();
                activity.renewed(holder);
                activity.mark();
                next.renewed(lease);
            }

            @Override
            public void released(Lease lease, long lastIssuedMillis, String why) {
                next.released(lease, lastIssuedMillis, why);
            }

            @Override
            public void lost(Lease lease, String why) {
                LeaseActivity activity = current();
                activity.lost(holder);
                // The calls so far were the lost lease's; the next acquisition counts its own.
                activity.mark();
                next.lost(lease, why);
            }
        };
    }

    /** A lease route's outcome for the agents' part, as its audit line says it. */
    public void routeOutcome(LeaseAudit line) {
        switch (line.event()) {
            case GRANTED -> current().acquired(LeaseHolder.AGENTS);
            case RENEWED -> current().renewed(LeaseHolder.AGENTS);
            case LOST -> current().lost(LeaseHolder.AGENTS);
            case RELEASED -> {
                // Not metered: a release is the holder's plain wish.
            }
        }
    }
}
