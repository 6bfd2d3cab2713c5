package dev.snowid.simulator;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The simulator finds every planted bug within {@link #SEEDS} seeds, and the seed that finds it
 * runs clean on the real code: proof that it can fail, and that the fault is the bug's, not the
 * simulator's. The last two are real bugs it found, reverted: it must keep finding them.
 */
class PlantedBugsTest {

    /** Seeds tried per planted bug, from seed 1 on. */
    static final int SEEDS = 400;

    @ParameterizedTest
    @EnumSource(PlantedBug.class)
    @Execution(ExecutionMode.CONCURRENT) // two planted bugs at a time; the other test classes run alone
    void theSimulatorFindsIt(PlantedBug bug) throws Exception {
        ClassLoader mutated = bug.loader();
        long started = System.nanoTime();
        for (long seed = 1; seed <= SEEDS; seed++) {
            String violation = (String) PlantedBug.call(mutated, "violationOf", new Class<?>[] {long.class}, seed);
            if (violation != null) {
                System.out.printf("planted bug %s: found by seed %d (%d ms): %s%n", bug, seed, (System.nanoTime() - started) / 1_000_000,
                        violation);
                assertNull(Simulator.violationOf(seed), "seed " + seed + " fails without the planted bug too: a simulator or a real bug");
                return;
            }
        }
        assertNotNull(null, "planted bug " + bug + " not found within " + SEEDS + " seeds: the simulator stopped exploring what finds it");
    }
}
