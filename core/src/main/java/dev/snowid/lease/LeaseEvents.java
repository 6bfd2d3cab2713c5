package dev.snowid.lease;

/**
 * What happens to a {@link LeasedGenerator}'s lease, as it happens: for audit lines that answer
 * "who held slot X at time T?". Called by the thread that talked to the lease source, while the
 * generator's lock is held: keep it quick, and never call back into the generator.
 */
public interface LeaseEvents {

    /** A lease was taken (or, with {@link LeasedGeneratorBuilder#startingWith(Lease)}, handed over). */
    void granted(Lease lease);

    /** The source confirmed a later expiry; {@code lease} is the lease as renewed. */
    void renewed(Lease lease);

    /** The source confirmed the release: the slot is free from {@code lastIssuedMillis} + 1 (0: nothing issued). */
    void released(Lease lease, long lastIssuedMillis, String why);

    /** The slot is no longer ours (taken over, or the source said so); nothing more is issued from it. */
    void lost(Lease lease, String why);

    /** Tells nobody. */
    LeaseEvents NONE = new LeaseEvents() {
        @Override
        public void granted(Lease lease) {
        }

        @Override
        public void renewed(Lease lease) {
        }

        @Override
        public void released(Lease lease, long lastIssuedMillis, String why) {
        }

        @Override
        public void lost(Lease lease, String why) {
        }
    };
}
