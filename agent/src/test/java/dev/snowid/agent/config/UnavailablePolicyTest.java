package dev.snowid.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class UnavailablePolicyTest {

    private static final IdUnavailableException UNAVAILABLE = new IdUnavailableException("lease expired", 5);

    @Test
    void throwHandsTheGeneratorOverUntouched() {
        LongSupplier generator = () -> 1;
        assertSame(generator, UnavailablePolicy.parse("throw", "p").guard(generator));
        assertSame(generator, UnavailablePolicy.parse(null, "p").guard(generator));
    }

    @Test
    void waitRetriesUntilAnIdComes() {
        AtomicInteger calls = new AtomicInteger();
        LongSupplier recovering = () -> {
            if (calls.incrementAndGet() < 3) {
                throw UNAVAILABLE;
            }
            return 42;
        };
        assertEquals(42, UnavailablePolicy.parse("wait:5000", "p").guard(recovering).getAsLong());
        assertEquals(3, calls.get());
    }

    @Test
    void waitGivesUpWithTheGeneratorsExceptionAfterItsBound() {
        AtomicInteger calls = new AtomicInteger();
        LongSupplier down = () -> {
            calls.incrementAndGet();
            throw UNAVAILABLE;
        };
        IdUnavailableException thrown = assertThrows(IdUnavailableException.class,
                () -> UnavailablePolicy.parse("wait:50", "p").guard(down).getAsLong());
        assertSame(UNAVAILABLE, thrown);
        assertTrue(calls.get() > 1, "retried: " + calls.get());
    }

    @Test
    void otherFailuresAreNotRetried() {
        AtomicInteger calls = new AtomicInteger();
        LongSupplier broken = () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("bug");
        };
        assertThrows(IllegalStateException.class, () -> UnavailablePolicy.parse("wait:1000", "p").guard(broken).getAsLong());
        assertEquals(1, calls.get());
    }
}
