package dev.snowid;

import java.time.Instant;

/** A decoded Snowflake ID: the number and its four fields. */
public final class SnowflakeId {

    private final long value;
    private final long unixMillis;
    private final int datacenter;
    private final int machine;
    private final int sequence;

    SnowflakeId(long value, long unixMillis, int datacenter, int machine, int sequence) {
        this.value = value;
        this.unixMillis = unixMillis;
        this.datacenter = datacenter;
        this.machine = machine;
        this.sequence = sequence;
    }

    public long value() {
        return value;
    }

    /** When the ID was issued, in unix milliseconds (the codec's epoch already added). */
    public long unixMillis() {
        return unixMillis;
    }

    public Instant instant() {
        return Instant.ofEpochMilli(unixMillis);
    }

    public int datacenter() {
        return datacenter;
    }

    public int machine() {
        return machine;
    }

    public Slot slot() {
        return Slot.of(datacenter, machine);
    }

    public int sequence() {
        return sequence;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SnowflakeId
                && ((SnowflakeId) other).value == value
                && ((SnowflakeId) other).unixMillis == unixMillis;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(value);
    }

    /** The decimal ID, as clients see it. */
    @Override
    public String toString() {
        return Long.toString(value);
    }
}
