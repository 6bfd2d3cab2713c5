package dev.snowid.simulator;

import dev.snowid.region.Claim;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.Map;

/**
 * Liveness, once the faults have stopped: every live holder and function environment has issued
 * again within {@link Simulation#LIVENESS_BOUND_MILLIS}. The exceptions the protocol states:
 * a full pool, a block that is not its region's (released, or another region's), a stack an
 * operator is still working on, a restored table or a claim that starts after the faults stopped
 * (a deleted table's claim ends an hour and more ahead, and the next claim starts there),
 * and a process started too late to be judged.
 */
final class Liveness {

    private Liveness() {
    }

    static String check(Simulation sim) {
        long healedMillis = Simulation.START_MILLIS + sim.healAtNanos() / 1_000_000;
        long since = healedMillis + Simulation.LIVENESS_BOUND_MILLIS;
        Claim current = sim.registryEngine.claims().get(Simulation.BLOCK).current();
        for (Proc process : sim.processes) {
            if (!process.alive || process instanceof Operator || process.lastIssuedMillis >= since) {
                continue;
            }
            Region region = process instanceof Holder holder ? holder.region : ((FunctionEnv) process).region;
            if (region.draining || region.restored || current == null || !current.heldBy(region.claimant, region.table.name)
                    || current.from() > healedMillis
                    || Simulation.START_MILLIS + process.bornNanos / 1_000_000 > healedMillis + 60_000 || poolFull(sim, region)) {
                continue;
            }
            return "liveness: " + process.name + " issued nothing in the " + (sim.trueMillis() - since) + " ms after the bound of "
                    + Simulation.LIVENESS_BOUND_MILLIS + " ms once the faults stopped (last ID at "
                    + (process.lastIssuedMillis < 0 ? "never" : (process.lastIssuedMillis - Simulation.START_MILLIS) + " ms") + ")";
        }
        return null;
    }

    private static boolean poolFull(Simulation sim, Region region) {
        long now = sim.trueMillis();
        int held = 0;
        for (Map.Entry<dev.snowid.Slot, InMemoryLeaseStore.Row> row : region.table.engine.rows().entrySet()) {
            if (row.getValue().owner != null && row.getValue().expiresAt >= now && Simulation.POOL.contains(row.getKey())) {
                held++;
            }
        }
        return held >= Simulation.POOL.size();
    }
}
