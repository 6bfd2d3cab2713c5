package dev.snowid.simulator;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulator's command line (testing/simulator/simulate.sh runs it):
 * <pre>
 * simulate.sh run SECONDS [FIRST_SEED]     seeds from FIRST_SEED on, for SECONDS of wall time: seeds/s, holder-hours,
 *                                          faults by class, violations (each with its minimal trace and replay command)
 * simulate.sh replay SEED [FAULTS]         one seed, only the faults of its plan listed (e.g. 0,3), with its trace
 * </pre>
 */
public final class Simulator {

    private Simulator() {
    }

    public static void main(String[] args) {
        try {
            command(args);
        } catch (NumberFormatException notANumber) {
            System.err.println("not a whole number: " + notANumber.getMessage() + "; " + USAGE);
            System.exit(2);
        }
    }

    private static final String USAGE = "usage: simulate.sh run SECONDS [FIRST_SEED] | simulate.sh replay SEED [FAULT,FAULT... | none]";

    private static void command(String[] args) {
        if (args.length >= 2 && args[0].equals("run")) {
            long seconds = Long.parseLong(args[1]);
            long first = args.length > 2 ? Long.parseLong(args[2]) : System.currentTimeMillis();
            System.exit(longRun(seconds, first) == 0 ? 0 : 1);
        } else if (args.length >= 2 && args[0].equals("replay")) {
            long seed = Long.parseLong(args[1]);
            Set<Integer> kept = args.length > 2 ? faults(args[2]) : null;
            Simulation.Result result = Simulation.run(seed, kept, true);
            result.trace().forEach(System.out::println);
            System.out.println(describe(result));
            System.exit(result.violation() == null ? 0 : 1);
        } else {
            System.err.println(USAGE);
            System.exit(2);
        }
    }

    /** Runs seeds from {@code first} on for {@code seconds} of wall time; prints the figures; returns the violations found. */
    static int longRun(long seconds, long first) {
        long started = System.nanoTime();
        long deadline = started + seconds * 1_000_000_000L;
        long seeds = 0;
        double holderHours = 0;
        long ids = 0;
        int violations = 0;
        long unexpected = 0;
        String firstUnexpected = null;
        Map<FaultClass, Long> injected = new EnumMap<>(FaultClass.class);
        for (long seed = first; System.nanoTime() < deadline; seed++) {
            Simulation.Result result = Simulation.run(seed, null, false);
            seeds++;
            holderHours += result.holderHours();
            ids += result.ids();
            unexpected += result.unexpectedCount();
            if (firstUnexpected == null && result.unexpected() != null) {
                firstUnexpected = "seed " + seed + ": " + result.unexpected();
            }
            result.injected().forEach((kind, count) -> injected.merge(kind, (long) count, Long::sum));
            if (result.violation() != null) {
                violations++;
                System.out.println(minimalReport(seed));
            }
        }
        double elapsed = (System.nanoTime() - started) / 1e9;
        System.out.printf("seeds %d to %d: %d seeds in %.0f s, %.1f seeds/s; %.1f simulated holder-hours; %d IDs; violations: %d%n",
                first, first + seeds - 1, seeds, elapsed, seeds / elapsed, holderHours, ids, violations);
        System.out.println("faults injected, by class: " + injected);
        System.out.println("exceptions no caller handled (traced, not violations): " + unexpected
                + (firstUnexpected == null ? "" : "; the first: " + firstUnexpected));
        return violations;
    }

    /**
     * A failing seed's 1-minimal plan (greedy: drop one fault at a time while the run still fails,
     * until no single fault can be dropped), its trace and the command that replays it.
     */
    static String minimalReport(long seed) {
        Set<Integer> kept = minimalFaults(seed);
        Simulation.Result result = Simulation.run(seed, kept, true);
        StringBuilder report = new StringBuilder();
        report.append("VIOLATION in seed ").append(seed).append(": ").append(result.violation()).append('\n');
        report.append("1-minimal fault plan: ").append(result.faults()).append('\n');
        List<String> trace = result.trace();
        int from = Math.max(0, trace.size() - 60);
        report.append("last ").append(trace.size() - from).append(" of ").append(trace.size()).append(" trace lines:\n");
        for (String line : trace.subList(from, trace.size())) {
            report.append("  ").append(line).append('\n');
        }
        report.append("replay: ").append(replayCommand(seed, kept));
        return report.toString();
    }

    static Set<Integer> minimalFaults(long seed) {
        Set<Integer> kept = new LinkedHashSet<>();
        for (Fault fault : Fault.plan(seed, Simulation.FAULT_PERIOD_MILLIS)) {
            kept.add(fault.index());
        }
        boolean dropped = true;
        while (dropped) {
            dropped = false;
            for (Integer index : new ArrayList<>(kept)) {
                Set<Integer> fewer = new LinkedHashSet<>(kept);
                fewer.remove(index);
                if (Simulation.run(seed, fewer, false).violation() != null) {
                    kept = fewer;
                    dropped = true;
                }
            }
        }
        return kept;
    }

    static String replayCommand(long seed, Set<Integer> kept) {
        StringBuilder faults = new StringBuilder();
        for (Integer index : kept) {
            faults.append(faults.length() == 0 ? "" : ",").append(index);
        }
        return "testing/simulator/simulate.sh replay " + seed + " " + (faults.length() == 0 ? "none" : faults);
    }

    /** The violation of {@code seed} with every fault of its plan, or null: for runs under another class loader (planted bugs). */
    public static String violationOf(long seed) {
        return Simulation.run(seed, null, false).violation();
    }

    /** The 1-minimal fault plan of a failing {@code seed}, as indexes: for runs under another class loader. */
    public static int[] minimalPlanOf(long seed) {
        return minimalFaults(seed).stream().mapToInt(Integer::intValue).toArray();
    }

    /** The violation of {@code seed} run with only the faults {@code kept} of its plan, or null. */
    public static String violationOf(long seed, int[] kept) {
        Set<Integer> faults = new LinkedHashSet<>();
        for (int index : kept) {
            faults.add(index);
        }
        return Simulation.run(seed, faults, false).violation();
    }

    static String describe(Simulation.Result result) {
        return "seed " + result.seed() + ": " + (result.violation() == null ? "no violation" : "VIOLATION " + result.violation()) + "; "
                + result.steps() + " steps, " + result.ids() + " IDs, trace hash " + Long.toHexString(result.traceHash())
                + ", faults " + result.injected() + (result.unexpectedCount() == 0 ? "" : ", " + result.unexpectedCount()
                + " unexpected exceptions, first: " + result.unexpected());
    }

    private static Set<Integer> faults(String list) {
        Set<Integer> kept = new LinkedHashSet<>();
        if (!list.equals("none")) {
            for (String index : list.split(",")) {
                kept.add(Integer.parseInt(index.trim()));
            }
        }
        return kept;
    }
}
