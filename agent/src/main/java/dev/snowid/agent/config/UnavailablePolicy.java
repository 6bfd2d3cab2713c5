package dev.snowid.agent.config;

import dev.snowid.IdUnavailableException;
import dev.snowid.internal.WholeNumber;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * What a redirected method does when no ID can be issued (lease lost or expired, clock far
 * behind): {@code throw} (the default) hands the {@link IdUnavailableException} to the caller at
 * once; {@code wait:<ms>} retries for at most that long, then throws. Both fail closed. Nothing
 * else is offered on purpose: falling back to the original method or returning a sentinel would
 * mix IDs from another source into the same column, which is exactly the collision snowid exists
 * to prevent.
 */
public final class UnavailablePolicy {

    static final long MAX_WAIT_MILLIS = 60_000;
    static final String ALLOWED = "allowed: throw (the default: fail at once), or wait:<ms> with ms from 1 to "
            + MAX_WAIT_MILLIS + " (retry that long, then fail); there is no fallback that returns an ID without a lease";

    private final long waitMillis;

    private UnavailablePolicy(long waitMillis) {
        this.waitMillis = waitMillis;
    }

    /** {@code setting} names the property and its value for messages, e.g. {@code snowid.onUnavailable='wait:x'}. */
    static UnavailablePolicy parse(String text, String setting) {
        if (text == null || text.equals("throw")) {
            return new UnavailablePolicy(0);
        }
        if (text.startsWith("wait:")) {
            OptionalLong number = WholeNumber.parse(text.substring("wait:".length()));
            if (!number.isPresent()) {
                throw new AgentConfigurationException(setting + " has no valid number of ms; " + ALLOWED);
            }
            long millis = number.getAsLong();
            if (millis < 1 || millis > MAX_WAIT_MILLIS) {
                throw new AgentConfigurationException(setting + " waits out of range; " + ALLOWED);
            }
            return new UnavailablePolicy(millis);
        }
        throw new AgentConfigurationException(setting + " is not a policy; " + ALLOWED);
    }

    long waitMillis() {
        return waitMillis;
    }

    /** The generator as the bridge calls it: unchanged for {@code throw}, with bounded retries for {@code wait}. */
    public LongSupplier guard(LongSupplier generator) {
        if (waitMillis == 0) {
            return generator;
        }
        return new Waiting(generator, waitMillis);
    }

    /** Retries an unavailable generator for at most the policy's wait. */
    private static final class Waiting implements LongSupplier {
        private final LongSupplier generator;
        private final long waitMillis;

        Waiting(LongSupplier generator, long waitMillis) {
            this.generator = generator;
            this.waitMillis = waitMillis;
        }

        @Override
        public long getAsLong() {
            return nextWaiting(generator, waitMillis);
        }
    }

    private static long nextWaiting(LongSupplier generator, long waitMillis) {
        long deadline = System.nanoTime() + waitMillis * 1_000_000;
        while (true) {
            try {
                return generator.getAsLong();
            } catch (IdUnavailableException e) {
                long leftNanos = deadline - System.nanoTime();
                if (leftNanos <= 0) {
                    throw e;
                }
                long leftMillis = (leftNanos + 999_999) / 1_000_000; // rounded up: the whole wait is waited
                try {
                    Thread.sleep(Math.min(leftMillis, Math.min(e.retryAfterMillis(), 100)));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    @Override
    public String toString() {
        return waitMillis == 0 ? "throw" : "wait:" + waitMillis;
    }
}
