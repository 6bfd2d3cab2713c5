package dev.snowid;

import static dev.snowid.SnowflakeCodec.IDS_PER_MILLISECOND;
import static dev.snowid.SnowflakeCodec.MAX_SEQUENCE;
import static dev.snowid.SnowflakeCodec.TIMESTAMP_SHIFT;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issues the IDs of one slot: thread-safe, lock-free, strictly increasing, at most 4,096 per ms.
 *
 * <p>Every issue reads the clock <em>before</em> it touches the sequence (Twitter's 2010
 * {@code IdWorker} did it the other way round, so a step back could repeat a sequence), and
 * stays inside the lease window {@code [floor, expiresAt)}: outside it, nothing is issued.
 * A small step back of the clock is waited out; a larger one is refused with the size of the
 * step, leaving the state as it was so issuing resumes once the clock has caught up.
 */
public final class SnowflakeGenerator {

    /** Default step back of the clock that is waited out rather than refused. */
    public static final long DEFAULT_TOLERATED_BACKWARD_MILLIS = 5;
    /** Upper bound for the tolerated step back: a longer wait is an outage, not a hiccup. */
    public static final long MAX_TOLERATED_BACKWARD_MILLIS = 10_000;

    // state = unix ms of the last reservation << NEXT_BITS | next free sequence (4096: none left).
    private static final int NEXT_BITS = SnowflakeCodec.SEQUENCE_BITS + 1;
    private static final long NEXT_MASK = (1L << NEXT_BITS) - 1;
    private static final long NOTHING_ISSUED = IDS_PER_MILLISECOND;
    private static final long CLOSED = -1;

    private final Slot slot;
    private final SnowflakeCodec codec;
    private final WallClock clock;
    private final long toleratedBackwardMillis;
    private final int randomFirstSequenceBound;
    private final long nodeBits;
    private final long epochMillis;
    private final long horizonMillis;

    private final AtomicLong state = new AtomicLong(NOTHING_ISSUED);
    private volatile LeaseWindow window;
    private volatile long lastIssuedAtClose;

    private SnowflakeGenerator(Builder builder) {
        this.slot = builder.slot;
        this.codec = builder.codec;
        this.clock = builder.clock;
        this.toleratedBackwardMillis = builder.toleratedBackwardMillis;
        this.randomFirstSequenceBound = builder.randomFirstSequenceBound;
        this.window = builder.window;
        this.nodeBits = SnowflakeCodec.nodeBits(slot);
        this.epochMillis = codec.epochMillis();
        this.horizonMillis = codec.horizonMillis();
    }

    /** A generator for {@code slot}; set its lease window, or say {@code LeaseWindow.UNBOUNDED} for a fixed node. */
    public static Builder forSlot(Slot slot) {
        return new Builder(slot);
    }

    public long nextId() {
        long reservation = reserve(1);
        return idOf(reservation >>> NEXT_BITS, (int) (reservation & NEXT_MASK));
    }

    /**
     * {@code count} IDs (1 to 4,096), increasing. The sequence range is reserved in one step
     * per millisecond touched, not one per ID.
     */
    public long[] nextIds(int count) {
        SnowflakeCodec.checkBatchCount(count);
        long[] ids = new long[count];
        int filled = 0;
        while (filled < count) {
            int wanted = count - filled;
            long reservation = reserve(wanted);
            int first = (int) (reservation & NEXT_MASK);
            int taken = Math.min(wanted, IDS_PER_MILLISECOND - first);
            long firstId = idOf(reservation >>> NEXT_BITS, first);
            for (int i = 0; i < taken; i++) {
                ids[filled++] = firstId + i;
            }
        }
        return ids;
    }

    /**
     * Takes up to {@code wanted} consecutive sequences of one millisecond in one atomic step.
     * Returns {@code millis << NEXT_BITS | firstSequence}; the count taken is
     * {@code min(wanted, 4096 - firstSequence)}.
     */
    private long reserve(int wanted) {
        while (true) {
            long now = clock.millis();
            long current = state.get();
            if (current == CLOSED) {
                throw new LeaseExpiredException("slot " + slot + ": this generator was closed (lease released or lost); it issues nothing more");
            }
            long last = current >>> NEXT_BITS;
            if (now < last) {
                awaitClock(last, "the last issued ID", toleratedBackwardMillis);
                continue;
            }
            LeaseWindow lease = window;
            if (now >= lease.expiresAt()) {
                throw new LeaseExpiredException("slot " + slot + ": lease expired at " + lease.expiresAt()
                        + " (unix ms), " + (now - lease.expiresAt()) + " ms ago; no ID is issued without a renewed lease");
            }
            if (now < lease.floor()) {
                awaitClock(lease.floor(), "the lease's floor", toleratedBackwardMillis);
                continue;
            }
            if (now < epochMillis || now > horizonMillis) {
                throw new IdUnavailableException("clock reads " + now + " (unix ms), outside what the format can encode: "
                        + epochMillis + " to " + horizonMillis, 1000);
            }
            int first = now > last ? firstSequence() : (int) (current & NEXT_MASK);
            if (first > MAX_SEQUENCE) {
                awaitClock(last + 1, "the last issued ID", toleratedBackwardMillis + 1); // this millisecond is used up
                continue;
            }
            int taken = Math.min(wanted, IDS_PER_MILLISECOND - first);
            if (state.compareAndSet(current, now << NEXT_BITS | (first + taken))) {
                return now << NEXT_BITS | first;
            }
        }
    }

    private long idOf(long unixMillis, int sequence) {
        return ((unixMillis - epochMillis) << TIMESTAMP_SHIFT) | nodeBits | sequence;
    }

    private int firstSequence() {
        return randomFirstSequenceBound == 1 ? 0 : ThreadLocalRandom.current().nextInt(randomFirstSequenceBound);
    }

    /** Spins until the clock reaches {@code target}, or refuses if that is more than {@code tolerated} ms away. */
    private void awaitClock(long target, String what, long tolerated) {
        long behind = target - clock.millis();
        if (behind > tolerated) {
            throw new ClockBehindException(what, behind, tolerated);
        }
        // A guard against a clock that stopped: never spin much longer than the step itself.
        long deadline = System.nanoTime() + (tolerated + 1000) * 1_000_000;
        while ((behind = target - clock.millis()) > 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new ClockBehindException(what, behind, tolerated);
            }
            Thread.yield();
        }
    }

    /**
     * Lets the generator issue until {@code newExpiresAt}: call only once the renewal is
     * confirmed by the store. A smaller value than the current expiry is ignored.
     */
    public synchronized void extendLease(long newExpiresAt) {
        if (newExpiresAt > window.expiresAt()) {
            window = window.extendedTo(newExpiresAt);
        }
    }

    /**
     * Stops issuing for good and returns the unix ms of the last ID issued (0 if none), which is
     * what releasing the lease needs. No ID is issued after this returns.
     */
    public synchronized long close() {
        long previous = state.getAndSet(CLOSED);
        if (previous != CLOSED) {
            lastIssuedAtClose = previous >>> NEXT_BITS;
        }
        return lastIssuedAtClose;
    }

    public boolean isClosed() {
        return state.get() == CLOSED;
    }

    /** The unix ms of the last ID issued, 0 if none. */
    public long lastIssuedMillis() {
        long current = state.get();
        return current == CLOSED ? lastIssuedAtClose : current >>> NEXT_BITS;
    }

    public Slot slot() {
        return slot;
    }

    public SnowflakeCodec codec() {
        return codec;
    }

    public LeaseWindow window() {
        return window;
    }

    public static final class Builder {
        private final Slot slot;
        private SnowflakeCodec codec = SnowflakeCodec.TWITTER;
        private WallClock clock = WallClock.SYSTEM;
        private LeaseWindow window;
        private long toleratedBackwardMillis = DEFAULT_TOLERATED_BACKWARD_MILLIS;
        private int randomFirstSequenceBound = 1;

        private Builder(Slot slot) {
            if (slot == null) {
                throw new IllegalArgumentException("a generator needs a slot");
            }
            this.slot = slot;
        }

        /** The confirmed lease window; IDs are issued only inside it. */
        public Builder window(LeaseWindow window) {
            this.window = window;
            return this;
        }

        public Builder codec(SnowflakeCodec codec) {
            this.codec = codec;
            return this;
        }

        public Builder clock(WallClock clock) {
            this.clock = clock;
            return this;
        }

        /** Steps back of the clock up to this many ms are waited out; larger ones are refused. */
        public Builder toleratingBackwardMillis(long millis) {
            if (millis < 0 || millis > MAX_TOLERATED_BACKWARD_MILLIS) {
                throw new IllegalArgumentException("tolerated backward step " + millis + " ms is out of range: allowed 0 to "
                        + MAX_TOLERATED_BACKWARD_MILLIS + " ms");
            }
            this.toleratedBackwardMillis = millis;
            return this;
        }

        /**
         * Starts each millisecond at a random sequence below {@code bound} instead of 0, for
         * users who shard by {@code id % N}. It costs capacity: on average {@code bound / 2} of
         * each millisecond's 4,096 sequences go unused. 1 (the default) turns it off.
         */
        public Builder randomFirstSequence(int bound) {
            if (bound < 1 || bound > IDS_PER_MILLISECOND) {
                throw new IllegalArgumentException("random first sequence bound " + bound + " is out of range: allowed 1 (off) to "
                        + IDS_PER_MILLISECOND);
            }
            this.randomFirstSequenceBound = bound;
            return this;
        }

        public SnowflakeGenerator build() {
            if (window == null) {
                throw new IllegalStateException("a generator needs a lease window: a confirmed lease's, or LeaseWindow.UNBOUNDED for a fixed node");
            }
            return new SnowflakeGenerator(this);
        }
    }
}
