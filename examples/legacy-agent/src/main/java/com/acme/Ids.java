package com.acme;

import java.util.concurrent.atomic.AtomicLong;

/** The app's own ID method, as legacy code often has one: unique in one JVM at best. */
public final class Ids {

    private static final AtomicLong LAST = new AtomicLong();

    private Ids() {
    }

    public static long next() {
        return LAST.updateAndGet(last -> Math.max(last + 1, System.currentTimeMillis() << 20));
    }
}
