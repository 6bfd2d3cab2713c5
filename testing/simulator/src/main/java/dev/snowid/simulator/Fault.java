package dev.snowid.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One fault of a run's plan: what, when (virtual ms from the start), for how long, on which
 * target (an index the world maps onto its processes), with a parameter and a seed of its own,
 * so that dropping another fault from the plan leaves this one as it was.
 */
public record Fault(int index, FaultClass kind, long atMillis, long durationMillis, int target, long param, long seed) {

    @Override
    public String toString() {
        return "#" + index + " " + kind + " at " + atMillis + " ms for " + durationMillis + " ms on target " + target + " (" + param + ")";
    }

    /** The plan of one seed: a few to a dozen faults, any mix, inside the fault period. */
    static List<Fault> plan(long seed, long faultPeriodMillis) {
        Random random = new Random(seed ^ 0x5DEECE66DL * 31);
        FaultClass[] kinds = FaultClass.values();
        int count = 3 + random.nextInt(10);
        List<Fault> plan = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            FaultClass kind = kinds[random.nextInt(kinds.length)];
            long at = 2_000 + (long) (random.nextDouble() * (faultPeriodMillis - 2_000));
            long duration = switch (kind) {
                case PAUSE -> 30_000 + random.nextInt(120_000); // longer than a lease
                case TTL_DELETION -> (1 + random.nextInt(9)) * 86_400_000L; // days: TTL deletes a week after expiry
                case REGISTRY_UNREACHABLE -> 10_000 + random.nextInt(900_000); // up to beyond the confirmation interval
                case CRASH_RESTART -> 1_000 + random.nextInt(60_000);
                case BLOCK_HANDOVER -> 200_000; // the operator's work: a handover, and maybe one back
                case TABLE_RESTORE, SNAPSHOT_COPIES -> 0;
                default -> 1_000 + random.nextInt(60_000);
            };
            if (kind == FaultClass.TTL_DELETION) {
                at = faultPeriodMillis - 60_000 + random.nextInt(30_000); // last: the faults after a days-long sleep would strike a sleeping fleet
            }
            if (kind == FaultClass.BLOCK_HANDOVER || kind == FaultClass.TABLE_RESTORE) {
                at = Math.min(at, faultPeriodMillis - 120_000); // the operator is done before the faults stop
            }
            plan.add(new Fault(i, kind, at, duration, random.nextInt(1 << 20), random.nextLong(), random.nextLong()));
        }
        plan.sort((a, b) -> Long.compare(a.atMillis(), b.atMillis()));
        List<Fault> numbered = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            Fault f = plan.get(i);
            numbered.add(new Fault(i, f.kind(), f.atMillis(), f.durationMillis(), f.target(), f.param(), f.seed()));
        }
        return numbered;
    }
}
