package dev.snowid.agent.e2e;

import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;

/**
 * Agent JVMs that lease their node from the test lease API, whose pool has two agent slots
 * (machines 1 and 2) in the test's datacenter.
 */
final class LeasedAgents {

    static final int SLOTS = 2;
    static final String TARGET = "com.acme.legacy.LegacyIds#nextLong";

    private LeasedAgents() {
    }

    /** The lease API with {@link #SLOTS} agent slots in {@code datacenter}; the caller closes it. */
    static LeaseApi api(TestTable table, int datacenter) {
        return LeaseApi.start(table, datacenter, SLOTS);
    }

    /** An agent JVM that leases its node from {@code url} for {@link #TARGET}. */
    static ChildJvm leased(Jdk jdk, String url) {
        return ChildJvm.on(jdk)
                .property("snowid.lease.url", url)
                .property("snowid.targets", TARGET)
                .env("SNOWID_LEASE_SECRET", LeaseApi.SECRET);
    }
}
