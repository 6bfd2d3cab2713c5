package dev.snowid.lambda;

import dev.snowid.client.wire.LeaseAudit;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseEvents;

/**
 * Audit lines for this environment's own lease (the one {@code /ids} issues from), next to the
 * lease routes' lines in the same log: the caller is the environment itself.
 */
final class OwnLeaseAudit implements LeaseEvents {

    static final String CALLER = "this function environment (/ids)";

    private final RequestLog log;
    private final String holder;

    OwnLeaseAudit(RequestLog log, String holder) {
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
        log.audit(line.holder(holder).caller(CALLER));
    }
}
