package dev.snowid.client;

import dev.snowid.client.wire.LeaseAudit;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;

/**
 * The client's lease events as audit lines ({@link LeaseAudit}) in its {@link ClientLog}; the
 * caller is the thread that talked to the lease API (the renewer, the thread that built the
 * client, a shutdown hook).
 */
final class AuditLines implements LeaseEvents {

    private final ClientLog log;
    private final String holder;

    AuditLines(ClientLog log, String holder) {
        this.log = log;
        this.holder = holder;
    }

    @Override
    public void granted(Lease lease) {
        write(LeaseAudit.of(LeaseAudit.Event.GRANTED, lease));
    }

    @Override
    public void renewed(Lease lease) {
        write(LeaseAudit.of(LeaseAudit.Event.RENEWED, lease));
    }

    @Override
    public void released(Lease lease, long lastIssuedMillis, String why) {
        write(LeaseAudit.of(LeaseAudit.Event.RELEASED, lease).lastIssued(lastIssuedMillis).reason(why));
    }

    @Override
    public void lost(Lease lease, String why) {
        write(LeaseAudit.of(LeaseAudit.Event.LOST, lease).reason(why));
    }

    private void write(LeaseAudit line) {
        log.audit(line.holder(holder).caller(Thread.currentThread().getName()).line());
    }
}
