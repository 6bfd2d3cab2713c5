package dev.snowid.lease;

import dev.snowid.SnowflakeGenerator;

/**
 * What one call of a {@link LeasedGenerator} issues, from the generator it found in force. Named
 * classes, not lambdas: the generator is on the agent's start-up path (see
 * {@code dev.snowid.agent}'s package documentation).
 */
interface Issue<T> {

    T from(SnowflakeGenerator generator);

    /** One ID. */
    Issue<Long> ONE = new Issue<Long>() {
        @Override
        public Long from(SnowflakeGenerator generator) {
            return generator.nextId();
        }
    };

    /** {@code count} increasing IDs, already checked to be a batch size the codec allows. */
    final class Batch implements Issue<long[]> {
        private final int count;

        Batch(int count) {
            this.count = count;
        }

        @Override
        public long[] from(SnowflakeGenerator generator) {
            return generator.nextIds(count);
        }
    }
}
