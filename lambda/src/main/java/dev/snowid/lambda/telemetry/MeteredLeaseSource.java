package dev.snowid.lambda.telemetry;

import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseSource;

/** The function's own lease source, telling the request's {@link LeaseActivity} what became of its lease. */
public final class MeteredLeaseSource implements LeaseSource {

    private final LeaseSource source;
    private final LeaseHolder holder;

    public MeteredLeaseSource(LeaseSource source, LeaseHolder holder) {
        this.source = source;
        this.holder = holder;
    }

    @Override
    public Lease acquire() {
        LeaseActivity activity = LeaseActivity.current();
        activity.mark();
        Lease lease = source.acquire();
        activity.acquired(holder);
        return lease;
    }

    @Override
    public Lease renew(Lease lease) {
        try {
            Lease renewed = source.renew(lease);
            LeaseActivity.current().renewed(holder);
            return renewed;
        } catch (LeaseLostException lost) {
            LeaseActivity.current().lost(holder);
            throw lost;
        }
    }

    @Override
    public void release(Lease lease, long lastIssuedMillis) {
        try {
            source.release(lease, lastIssuedMillis);
        } catch (LeaseLostException lost) {
            LeaseActivity.current().lost(holder);
            throw lost;
        }
    }
}
