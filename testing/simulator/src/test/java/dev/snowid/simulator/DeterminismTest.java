package dev.snowid.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** A seed names one run: the same seed gives the same event log, twice in one JVM; another seed another log. */
class DeterminismTest {

    @Test
    void aSeedRunTwiceGivesTheSameLog() {
        for (long seed = 1; seed <= 20; seed++) {
            Simulation.Result first = Simulation.run(seed, null, false);
            Simulation.Result again = Simulation.run(seed, null, false);
            assertEquals(first.traceHash(), again.traceHash(), "seed " + seed + " ran twice gave two event logs");
            assertEquals(first.steps(), again.steps());
        }
        assertNotEquals(Simulation.run(1, null, false).traceHash(), Simulation.run(2, null, false).traceHash());
    }

    @Test
    void aFailingSeedShrinksToAOneMinimalPlanThatStillFails() throws Exception {
        ClassLoader mutated = PlantedBug.SNAPSHOT_KEEPS_LEASE.loader();
        long seed = 0;
        for (long s = 1; s <= PlantedBugsTest.SEEDS && seed == 0; s++) {
            if (PlantedBug.call(mutated, "violationOf", new Class<?>[] {long.class}, s) != null) {
                seed = s;
            }
        }
        int[] minimal = (int[]) PlantedBug.call(mutated, "minimalPlanOf", new Class<?>[] {long.class}, seed);
        Class<?>[] withPlan = {long.class, int[].class};
        assertNotEquals(null, PlantedBug.call(mutated, "violationOf", withPlan, seed, minimal), "the minimal plan must still fail");
        for (int drop = 0; drop < minimal.length; drop++) {
            int[] fewer = new int[minimal.length - 1];
            for (int i = 0, j = 0; i < minimal.length; i++) {
                if (i != drop) {
                    fewer[j++] = minimal[i];
                }
            }
            assertEquals(null, PlantedBug.call(mutated, "violationOf", withPlan, seed, fewer),
                    "dropping fault " + minimal[drop] + " still fails: the plan is not 1-minimal");
        }
        System.out.println("seed " + seed + " under " + PlantedBug.SNAPSHOT_KEEPS_LEASE + " shrinks to faults " + java.util.Arrays.toString(minimal));
    }
}
