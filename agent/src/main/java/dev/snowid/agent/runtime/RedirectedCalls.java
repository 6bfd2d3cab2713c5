package dev.snowid.agent.runtime;

import dev.snowid.agent.config.Target;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * One ID source per target, all drawing on the same generator, each counting the calls it
 * answered with an ID, so that the shutdown report can show which paths really went through
 * snowid. A {@link LongAdder} rather than an atomic counter: threads calling one target at once
 * do not contend on it.
 */
public final class RedirectedCalls {

    private final LongSupplier[] sources;
    private final LongAdder[] counts;

    public RedirectedCalls(int targets, LongSupplier generator) {
        sources = new LongSupplier[targets];
        counts = new LongAdder[targets];
        for (int i = 0; i < targets; i++) {
            counts[i] = new LongAdder();
            sources[i] = new CountingSource(generator, counts[i]);
        }
    }

    /** For the bridge, indexed like the targets. */
    public LongSupplier[] sources() {
        return sources.clone();
    }

    /** Calls of the target at {@code index} answered with an ID so far. */
    public long count(int index) {
        return counts[index].sum();
    }

    /** Calls of all targets answered with an ID so far. */
    long total() {
        long total = 0;
        for (LongAdder count : counts) {
            total += count.sum();
        }
        return total;
    }

    static int indexOf(List<Target> targets, Target target) {
        int index = targets.indexOf(target);
        if (index < 0) {
            throw new IllegalArgumentException(target + " is not a configured target");
        }
        return index;
    }

    private static final class CountingSource implements LongSupplier {
        private final LongSupplier generator;
        private final LongAdder count;

        CountingSource(LongSupplier generator, LongAdder count) {
            this.generator = generator;
            this.count = count;
        }

        @Override
        public long getAsLong() {
            long id = generator.getAsLong();
            count.increment();
            return id;
        }
    }
}
