package dev.snowid.client;

import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;
import dev.snowid.protocol.LeaseAudit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The client's record of its lease events: an audit line for each ({@link LeaseAudit}, in its
 * {@link ClientLog}; the caller is the thread that talked to the lease API: the renewer, the
 * thread that built the client, a shutdown hook), and the counts {@link SnowidClient#stats()} shows.
 */
final class LeaseRecord implements LeaseEvents {

    /** The audit lines, mapped from the events as the function maps its own ({@link LeaseAudit#events}). */
    private final LeaseEvents audit;
    private final AtomicLong renewals = new AtomicLong();
    private final AtomicLong losses = new AtomicLong();

    /** @param auditAtInfo whether audit lines go to {@link ClientLog#audit} (INFO) rather than {@link ClientLog#auditBelowInfo} */
    LeaseRecord(ClientLog log, String holder, boolean auditAtInfo) {
        this.audit = LeaseAudit.events(new AuditLines(log, holder, auditAtInfo));
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
        audit.granted(lease);
    }

    @Override
    public void renewed(Lease lease) {
        renewals.incrementAndGet();
        audit.renewed(lease);
    }

    @Override
    public void released(Lease lease, long lastIssuedMillis, String why) {
        audit.released(lease, lastIssuedMillis, why);
    }

    @Override
    public void lost(Lease lease, String why) {
        losses.incrementAndGet();
        audit.lost(lease, why);
    }

    /** Writes each line to the client's log, with the holder and the thread that talked to the lease API. */
    private static final class AuditLines implements Consumer<LeaseAudit> {

        private final ClientLog log;
        private final String holder;
        private final boolean atInfo;

        AuditLines(ClientLog log, String holder, boolean atInfo) {
            this.log = log;
            this.holder = holder;
            this.atInfo = atInfo;
        }

        @Override
        public void accept(LeaseAudit line) {
            String json = line.holder(holder).caller(Thread.currentThread().getName()).line();
            if (atInfo) {
                log.audit(json);
            } else {
                log.auditBelowInfo(json);
            }
        }
    }
}
