package com.acme.legacy;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;

/**
 * {@code TimedCallsApp <ids file> <ms to go on calling after the first refusal>}: takes IDs from a
 * legacy method as {@link LeasedApp} does, but when the method throws it goes on calling, timing
 * every refused call, then prints
 * {@code REFUSED <count> SLOWEST_MS <ms> FIRST_REFUSED_AT <unix ms the first refused call returned> LAST_ID_AT <unix ms>}
 * and ends normally.
 */
public final class TimedCallsApp {

    public static void main(String[] args) throws Exception {
        long keepCallingMillis = Long.parseLong(args[1]);
        long firstRefusedAt = 0;
        long lastIdAt = 0;
        long refused = 0;
        long slowestNanos = 0;
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[0])))) {
            System.out.println("RUNNING");
            long refusalDeadline = System.currentTimeMillis() + 120_000; // the test expects a refusal well before
            while (firstRefusedAt == 0 || System.currentTimeMillis() < firstRefusedAt + keepCallingMillis) {
                if (firstRefusedAt == 0 && System.currentTimeMillis() > refusalDeadline) {
                    throw new IllegalStateException("no call refused within 120 s");
                }
                for (int i = 0; i < 100 && (firstRefusedAt == 0 || System.currentTimeMillis() < firstRefusedAt + keepCallingMillis); i++) {
                    long started = System.nanoTime();
                    try {
                        out.writeLong(LegacyIds.nextLong());
                        lastIdAt = System.currentTimeMillis();
                    } catch (RuntimeException e) {
                        slowestNanos = Math.max(slowestNanos, System.nanoTime() - started);
                        refused++;
                        if (firstRefusedAt == 0) {
                            firstRefusedAt = System.currentTimeMillis();
                            System.out.println("FIRST REFUSAL " + e.getClass().getSimpleName() + ": " + e.getMessage());
                        }
                    }
                }
                out.flush();
                Thread.sleep(2);
            }
        }
        System.out.println("REFUSED " + refused + " SLOWEST_MS " + slowestNanos / 1_000_000 + " FIRST_REFUSED_AT " + firstRefusedAt
                + " LAST_ID_AT " + lastIdAt);
    }
}
