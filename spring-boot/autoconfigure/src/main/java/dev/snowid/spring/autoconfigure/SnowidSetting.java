package dev.snowid.spring.autoconfigure;

/** The property names a start-up failure points at: one home for them, shared by the lease's start and its failure analysis. */
public enum SnowidSetting {
    URL("snowid.lease.url", "the snowid function's base URL (the template's LeaseUrl output, or the local runner's address)"),
    SECRET("snowid.lease.secret", "the lease API's bearer secret (or the environment variable SNOWID_LEASE_SECRET)"),
    HOLDER("snowid.lease.holder", "a label of 1 to 200 characters"),
    DURATION("snowid.lease.duration", "a lease length from 5s to 1h"),
    WAIT_FOR_SLOT("snowid.lease.wait-for-slot", "how long start-up may wait for a free slot, 0 to 1h"),
    EPOCH("snowid.epoch-millis", "the lease API's epoch, or no value to adopt it");

    private final String property;
    private final String allowed;

    SnowidSetting(String property, String allowed) {
        this.property = property;
        this.allowed = allowed;
    }

    public String property() {
        return property;
    }

    /** What the property takes, in words. */
    public String allowed() {
        return allowed;
    }
}
