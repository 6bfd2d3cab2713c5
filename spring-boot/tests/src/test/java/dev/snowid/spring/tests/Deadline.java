package dev.snowid.spring.tests;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds or the deadline passes; the failure says what was last seen. */
public final class Deadline {

    private Deadline() {
    }

    public static void await(String what, long millis, BooleanSupplier condition, Supplier<String> lastSeen) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("not within " + millis + " ms: " + what + "; last seen: " + lastSeen.get());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
