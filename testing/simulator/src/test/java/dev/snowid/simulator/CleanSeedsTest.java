package dev.snowid.simulator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CI's fixed seed range runs clean on the real code, and injects every fault class at least
 * {@link #AT_LEAST} times: a simulator that stops exploring a class of faults breaks the build.
 */
class CleanSeedsTest {

    static final long FIRST = 1;
    static final long LAST = 200;
    static final int AT_LEAST = 40;

    @Test
    void ciSeedRangeRunsCleanAndInjectsEveryFaultClass() {
        Map<FaultClass, Integer> injected = new EnumMap<>(FaultClass.class);
        long started = System.nanoTime();
        double holderHours = 0;
        for (long seed = FIRST; seed <= LAST; seed++) {
            Simulation.Result result = clean(seed);
            result.injected().forEach((kind, count) -> injected.merge(kind, count, Integer::sum));
            holderHours += result.holderHours();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("seeds %d to %d clean in %.1f s (%.1f seeds/s), %.0f simulated holder-hours; faults injected: %s%n", FIRST, LAST,
                seconds, (LAST - FIRST + 1) / seconds, holderHours, injected);
        for (FaultClass kind : FaultClass.values()) {
            int count = injected.getOrDefault(kind, 0);
            assertTrue(count >= AT_LEAST, kind + " injected " + count + " times in seeds " + FIRST + " to " + LAST + ", fewer than "
                    + AT_LEAST + ": the simulator stopped exploring it");
        }
    }

    /**
     * Seeds that once failed, kept: both paused a process after every fault was healed (a pause
     * drawn before a fleet-wide sleep ran when its target woke), which liveness then blamed on it.
     */
    @Test
    void seedsThatOnceFailedRunClean() {
        for (long seed : new long[] {6_009_145, 6_010_370}) {
            clean(seed);
        }
    }

    /** The seed's run, which must find no violation (else its 1-minimal fault plan is the failure). */
    private static Simulation.Result clean(long seed) {
        Simulation.Result result = Simulation.run(seed, null, false);
        if (result.violation() != null) {
            throw new AssertionError(Simulator.minimalReport(seed));
        }
        return result;
    }
}
