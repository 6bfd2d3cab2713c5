package dev.snowid.lambda;

import dev.snowid.lease.Lease;

/** A lease as the lease routes answer it: everything the agent needs to issue under it and to renew it. */
final class LeaseJson {

    private LeaseJson() {
    }

    static String write(Lease lease) {
        return new JsonBuilder()
                .field("slot", lease.slot().index())
                .field("datacenter", lease.slot().datacenter())
                .field("machine", lease.slot().machine())
                .field("owner", lease.owner())
                .field("fence", lease.fence())
                .field("floor", lease.window().floor())
                .field("expiresAt", lease.window().expiresAt())
                .end();
    }
}
