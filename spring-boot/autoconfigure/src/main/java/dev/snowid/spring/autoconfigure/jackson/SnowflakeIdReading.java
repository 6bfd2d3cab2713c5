package dev.snowid.spring.autoconfigure.jackson;

import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;

/**
 * How a JSON value becomes a {@link SnowflakeId}, for both Jackson lines: a string of decimal
 * digits (how they are written) or an integer (how older clients may send it). Anything else is
 * refused with what was wrong and what is allowed ({@link dev.snowid.InvalidIdException}).
 */
final class SnowflakeIdReading {

    static final String ALLOWED = "a Snowflake ID is a JSON string of decimal digits, or an integer, from 0 to " + Long.MAX_VALUE;

    private SnowflakeIdReading() {
    }

    static SnowflakeId fromString(SnowflakeCodec codec, String text) {
        return codec.parse(text);
    }

    static SnowflakeId fromInteger(SnowflakeCodec codec, long value) {
        if (value < 0) {
            throw new dev.snowid.InvalidIdException(value + " is not an ID: " + ALLOWED);
        }
        return codec.decode(value);
    }
}
