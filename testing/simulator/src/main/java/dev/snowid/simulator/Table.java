package dev.snowid.simulator;

import dev.snowid.testing.InMemoryClaimMarkers;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.Random;

/** One lease table (slots, request claims, claim markers), the engine's faults on it, and its identity. */
final class Table {

    final String name;
    final InMemoryLeaseStore engine;
    final InMemoryClaimMarkers markers;
    long unavailableUntilNanos;
    long slowUntilNanos;
    long slowMillis;
    long erroredUntilNanos;
    Random errors = new Random(0);

    Table(String name, InMemoryLeaseStore engine, InMemoryClaimMarkers markers) {
        this.name = name;
        this.engine = engine;
        this.markers = markers;
    }

    void heal() {
        unavailableUntilNanos = 0;
        slowUntilNanos = 0;
        erroredUntilNanos = 0;
    }
}
