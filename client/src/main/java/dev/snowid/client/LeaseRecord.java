package dev.snowid.client;

import dev.snowid.client.wire.LeaseAudit;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client's record of its lease events: an audit line for each ({@link LeaseAudit}, in its
 * {@link ClientLog}; the caller is the thread that talked to the lease API: the renewer, the
 * thread that built the client, a shutdown hook), and the counts {@link SnowidClient#stats()} shows.
 */
final class LeaseRecord implements LeaseEvents {

    private final ClientLog log;
    private final String holder;
    private final AtomicLong renewals = new AtomicLong();
    private final AtomicLong losses = new AtomicLong();

    LeaseRecord(ClientLog log, String holder) {
        this.log = log;
        this.holder = holder;
    }

    /** Renewals confirmed so far. */
    long renewals() {
        return renewals.get();
    }

    /** Leases lost so far (taken over, or the API said they were no longer ours). */
    long losses() {
        return losses.get();
    }

    @Override
    public void granted(Lease lease) {
        write(LeaseAudit.of(LeaseAudit.Event.GRANTED, lease));
    }

    @Override
    public void renewed(Lease lease) {
        renewals.incrementAndGet();
        write(LeaseAudit.of(LeaseAudit.Event.RENEWED, lease));
    }

    @Override
    public void released(Lease lease, long lastIssuedMillis, String why) {
        write(LeaseAudit.of(LeaseAudit.Event.RELEASED, lease).lastIssued(lastIssuedMillis).reason(why));
    }

    @Override
    public void lost(Lease lease, String why) {
        losses.incrementAndGet();
        write(LeaseAudit.of(LeaseAudit.Event.LOST, lease).reason(why));
    }

    private void write(LeaseAudit line) {
        log.audit(line.holder(holder).caller(Thread.currentThread().getName()).line());
    }
}
