package dev.snowid.simulator;

import java.util.Random;

/** A simulated process: its clocks, its own seeded randomness, and whether it runs. */
abstract class Proc {

    final Simulation sim;
    final String name;
    final SimClock clock;
    final Random stream;
    boolean alive = true;
    long pausedUntilNanos;
    /** How many of its events are on the stack now: its further events wait (one thread per process), but for concurrent ones. */
    int depth;
    final long bornNanos;
    long diedNanos = -1;
    /** A pause strikes at this many clock reads from now (0: none pending), for {@link #pauseNanos}. */
    int readsUntilPause;
    long pauseNanos;
    /** True ms of its last issued ID; -1: none yet. */
    long lastIssuedMillis = -1;

    Proc(Simulation sim, String name, SimClock clock, long streamSeed) {
        this.sim = sim;
        this.name = name;
        this.clock = clock;
        this.stream = new Random(streamSeed);
        clock.owner = this;
        this.bornNanos = sim.now();
        this.pausedUntilNanos = sim.asleepUntilNanos; // born while the fleet sleeps: asleep too
    }

    void kill() {
        if (alive) {
            alive = false;
            diedNanos = sim.now();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
