package dev.snowid;

/**
 * The 63-bit Snowflake layout, most significant bit first:
 * <pre>
 *   0 | 41 bits ms since epoch | 5 bits datacenter | 5 bits machine | 12 bits sequence
 * </pre>
 * Encoding rejects every field out of range; decoding rejects negative numbers and text
 * that is not a decimal 63-bit integer. The epoch defaults to Twitter's.
 */
public final class SnowflakeCodec {

    /** Twitter's epoch: 2010-11-04T01:42:54.657Z. */
    public static final long TWITTER_EPOCH_MILLIS = 1288834974657L;

    public static final int SEQUENCE_BITS = 12;
    public static final int MACHINE_BITS = 5;
    public static final int DATACENTER_BITS = 5;
    public static final int TIMESTAMP_BITS = 41;

    public static final int MACHINE_SHIFT = SEQUENCE_BITS;
    public static final int DATACENTER_SHIFT = MACHINE_SHIFT + MACHINE_BITS;
    public static final int TIMESTAMP_SHIFT = DATACENTER_SHIFT + DATACENTER_BITS;

    public static final int MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1;
    /** IDs one node can issue in one millisecond: the format's speed limit. */
    public static final int IDS_PER_MILLISECOND = MAX_SEQUENCE + 1;
    /** The most IDs one batch call asks for: one millisecond's worth, so a batch never spans more than two. */
    public static final int MAX_BATCH = IDS_PER_MILLISECOND;
    public static final long MAX_TIMESTAMP_OFFSET = (1L << TIMESTAMP_BITS) - 1;

    public static final SnowflakeCodec TWITTER = new SnowflakeCodec(TWITTER_EPOCH_MILLIS);

    private final long epochMillis;

    private SnowflakeCodec(long epochMillis) {
        this.epochMillis = epochMillis;
    }

    /** A codec counting from a custom epoch (unix ms, not negative, not in the future of 2^41 ms ago). */
    public static SnowflakeCodec withEpoch(long epochMillis) {
        if (epochMillis < 0 || epochMillis > Long.MAX_VALUE - MAX_TIMESTAMP_OFFSET) {
            throw new IllegalArgumentException("epoch " + epochMillis + " is out of range: allowed 0 to "
                    + (Long.MAX_VALUE - MAX_TIMESTAMP_OFFSET) + " (unix milliseconds)");
        }
        return epochMillis == TWITTER_EPOCH_MILLIS ? TWITTER : new SnowflakeCodec(epochMillis);
    }

    /**
     * The one rule for a configured epoch: a unix ms in the past (at most {@code nowMillis}), since
     * every ID needs a time after its own epoch; one in the future could never issue any. The
     * caller adds what is allowed in its own terms.
     *
     * @throws IllegalArgumentException when it is in the future or out of {@link #withEpoch(long)}'s range
     */
    public static SnowflakeCodec withPastEpoch(long epochMillis, long nowMillis) {
        if (epochMillis > nowMillis) {
            throw new IllegalArgumentException("epoch " + epochMillis + " is in the future (now is " + nowMillis
                    + "): no ID could be issued");
        }
        return withEpoch(epochMillis);
    }

    public long epochMillis() {
        return epochMillis;
    }

    /** The last unix millisecond this codec can encode: 2^41 - 1 ms after the epoch (2080 for Twitter's). */
    public long horizonMillis() {
        return epochMillis + MAX_TIMESTAMP_OFFSET;
    }

    public long encode(long unixMillis, int datacenter, int machine, int sequence) {
        if (unixMillis < epochMillis || unixMillis > horizonMillis()) {
            throw new IllegalArgumentException("timestamp " + unixMillis + " is out of range: allowed "
                    + epochMillis + " (the epoch) to " + horizonMillis() + " (the 41-bit horizon), in unix milliseconds");
        }
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + sequence + " is out of range: allowed 0 to " + MAX_SEQUENCE);
        }
        Slot slot = Slot.of(datacenter, machine);
        return ((unixMillis - epochMillis) << TIMESTAMP_SHIFT) | nodeBits(slot) | sequence;
    }

    /** The datacenter and machine fields of every ID a slot issues, already in place. */
    static long nodeBits(Slot slot) {
        return ((long) slot.datacenter() << DATACENTER_SHIFT) | ((long) slot.machine() << MACHINE_SHIFT);
    }

    public SnowflakeId decode(long id) {
        if (id < 0) {
            throw new InvalidIdException("ID " + id + " is negative: a Snowflake ID is from 0 to " + Long.MAX_VALUE);
        }
        return new SnowflakeId(id,
                (id >>> TIMESTAMP_SHIFT) + epochMillis,
                (int) (id >>> DATACENTER_SHIFT) & Slot.MAX_DATACENTER,
                (int) (id >>> MACHINE_SHIFT) & Slot.MAX_MACHINE,
                (int) id & MAX_SEQUENCE);
    }

    /** Decodes an ID written as decimal digits only: no sign, spaces, leading '+', or fraction. */
    public SnowflakeId parse(CharSequence text) {
        String allowed = "a Snowflake ID is written as decimal digits only, from 0 to " + Long.MAX_VALUE;
        if (text == null || text.length() == 0) {
            throw new InvalidIdException("no ID given: " + allowed);
        }
        if (text.length() > 64) {
            throw new InvalidIdException("'" + text.subSequence(0, 20) + "…' (" + text.length() + " characters) is not an ID: " + allowed);
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new InvalidIdException("'" + text + "' is not an ID: character " + (i + 1) + " is '" + c + "'; " + allowed);
            }
            if (value > (Long.MAX_VALUE - (c - '0')) / 10) {
                throw new InvalidIdException("'" + text + "' is not an ID: it is larger than " + Long.MAX_VALUE + "; " + allowed);
            }
            value = value * 10 + (c - '0');
        }
        return decode(value);
    }

    /** The one rule for a batch's size: 1 to {@link #MAX_BATCH} IDs. */
    public static boolean isBatchCount(long count) {
        return count >= 1 && count <= MAX_BATCH;
    }

    /** @throws IllegalArgumentException when {@code count} is not {@link #isBatchCount(long) a batch's size} */
    public static int checkBatchCount(int count) {
        if (!isBatchCount(count)) {
            throw new IllegalArgumentException("count " + count + " is out of range: allowed 1 to " + MAX_BATCH);
        }
        return count;
    }
}
