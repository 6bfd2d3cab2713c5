package dev.snowid.simulator;

import dev.snowid.SnowflakeCodec;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.SlotPool;
import dev.snowid.region.Block;
import dev.snowid.testing.InMemoryClaimMarkers;
import dev.snowid.testing.InMemoryClaimRegistry;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

/**
 * One run of the simulated fleet, named by its seed: two regions' stacks (lease table, function
 * environments) sharing one block through the claim registry, holders leasing through the lease
 * API, and an operator, all in one thread on virtual time. Events run in (time, sequence) order; a
 * process's blocking call lets the rest of the world run meanwhile ({@link #advance}). The faults
 * of the seed's plan ({@link Fault#plan}) are injected at their times and all healed at its end;
 * the invariants are checked at every step, liveness once the faults have stopped.
 */
public final class Simulation {

    static final long START_MILLIS = 1_780_000_000_000L;
    static final LeaseTerms TERMS = LeaseTerms.of(20_000, 2_000);
    static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;
    static final Block BLOCK = Block.of(0);
    static final SlotPool POOL = SlotPool.of(0, 0, 0, 9);
    /** Faults are injected in the first 8 virtual minutes. */
    static final long FAULT_PERIOD_MILLIS = 480_000;
    /** Once the faults have stopped, every live holder holds a slot and issues again within this bound (virtual ms). */
    public static final long LIVENESS_BOUND_MILLIS = 180_000;
    /** Function environments a region runs at most at once (its reserved concurrency). */
    static final int MAX_ENVS = 6;
    static final long QUIET_MILLIS = LIVENESS_BOUND_MILLIS + 60_000;

    final long seed;
    final List<Fault> plan;
    final Trace trace;
    final Invariants invariants = new Invariants(CODEC, TERMS.leaseMillis(), TERMS.toleratedSkewMillis());
    /** Who asks for how many IDs when: drawn apart from the faults. */
    final Random load;
    private final Random world;
    private final Random worldStream;
    private final Random clocks;
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long now;
    private long sequence;
    private long steps;
    private boolean stopped;
    private String violation;
    private String unexpected;
    private long unexpectedCount;
    final InMemoryClaimRegistry registryEngine = new InMemoryClaimRegistry();
    final RegistryView registry = new RegistryView(this, registryEngine);
    final Region a;
    final Region b;
    final List<Proc> processes = new ArrayList<>();
    final Operator operator;
    long registryDownUntilNanos;
    /** The whole fleet sleeps until then ({@link FaultClass#TTL_DELETION}). */
    long asleepUntilNanos;
    final List<NetworkWindow> network = new ArrayList<>();
    final Map<FaultClass, Integer> injected = new EnumMap<>(FaultClass.class);
    private long healAtNanos = Long.MAX_VALUE;
    private int tables;
    long sleptNanos;
    /** The process whose event runs now; null: the world's. */
    private Proc running;

    private Simulation(long seed, List<Fault> plan, boolean keepTrace) {
        this.seed = seed;
        this.plan = plan;
        this.trace = new Trace(keepTrace);
        this.load = new Random(seed * 0x9E3779B97F4A7C15L + 1);
        this.world = new Random(seed * 0x9E3779B97F4A7C15L + 2);
        this.worldStream = new Random(seed * 0x9E3779B97F4A7C15L + 3);
        this.clocks = new Random(seed * 0x9E3779B97F4A7C15L + 4);
        this.a = new Region("region-a", newTable("a"));
        this.b = new Region("region-b", newTable("b"));
        this.operator = new Operator(this);
    }

    /** Runs {@code seed}, with only the faults of its plan whose index {@code kept} holds (null: all). */
    public static Result run(long seed, Set<Integer> kept, boolean keepTrace) {
        SeededRandomness.install();
        List<Fault> plan = new ArrayList<>();
        for (Fault fault : Fault.plan(seed, FAULT_PERIOD_MILLIS)) {
            if (kept == null || kept.contains(fault.index())) {
                plan.add(fault);
            }
        }
        Simulation sim = new Simulation(seed, plan, keepTrace);
        Random before = SeededRandomness.use(sim.worldStream);
        try {
            return sim.run();
        } finally {
            SeededRandomness.use(before);
        }
    }

    private Result run() {
        for (int i = 0; i < 2; i++) {
            operator.addEnv(a);
            operator.addEnv(b);
        }
        for (int i = 1; i <= 3; i++) {
            operator.addHolder(a, "a-holder-" + i, baselineOffsetMillis());
        }
        for (int i = 1; i <= 2; i++) {
            operator.addHolder(b, "b-holder-" + i, baselineOffsetMillis());
        }
        long healAt = FAULT_PERIOD_MILLIS;
        for (Fault fault : plan) {
            healAt = Math.max(healAt, fault.atMillis() + fault.durationMillis() + 1_000);
            Faults.schedule(this, fault);
        }
        long heal = healAt * 1_000_000;
        at(heal, null, "faults stop: every fault healed", () -> {
            healAtNanos = now;
            Faults.healAll(this);
        });
        long end = heal + QUIET_MILLIS * 1_000_000;
        while (!stopped && !queue.isEmpty() && queue.peek().at <= end) {
            dispatch(queue.poll());
        }
        if (violation == null && now <= end) {
            now = end;
            violation = Liveness.check(this);
        }
        double holderHours = 0;
        for (Proc p : processes) {
            if (p instanceof Holder) {
                holderHours += ((p.diedNanos < 0 ? now : p.diedNanos) - p.bornNanos) / 3.6e12;
            }
        }
        holderHours -= sleptNanos / 3.6e12 * Faults.alive(this, Holder.class).size(); // asleep is not holding (roughly: those alive now)
        holderHours = Math.max(0, holderHours);
        trace.line("end: " + (violation == null ? "no violation" : "VIOLATION " + violation));
        return new Result(seed, violation, trace.hash(), steps, plan, injected, holderHours, invariants.issued(), unexpectedCount,
                unexpected, trace.lines());
    }

    // The virtual time and the events.

    long now() {
        return now;
    }

    long trueMillis() {
        return START_MILLIS + now / 1_000_000;
    }

    /** Reading a clock takes a microsecond. */
    void clockRead() {
        now += 1_000;
    }

    /** One network hop: 1 to 4 ms (DynamoDB and API Gateway in one region). */
    long latencyNanos() {
        return (1 + world.nextInt(4)) * 1_000_000L;
    }

    void after(Proc owner, boolean concurrent, long delayNanos, String what, Runnable action) {
        at(now + delayNanos, owner, concurrent, what, action);
    }

    void at(long atNanos, Proc owner, String what, Runnable action) {
        at(atNanos, owner, false, what, action);
    }

    private void at(long atNanos, Proc owner, boolean concurrent, String what, Runnable action) {
        queue.add(new Event(atNanos, sequence++, owner, concurrent, what, action));
    }

    /**
     * The current event waits {@code nanos} (a call's round trip, a sleep): the other processes'
     * events run meanwhile; those of a process in the middle of a call wait for it, but for its
     * application threads' (concurrent) ones.
     */
    void advance(long nanos) {
        long target = now + nanos;
        List<Event> waiting = null;
        while (!stopped && !queue.isEmpty() && queue.peek().at <= target) {
            Event event = queue.poll();
            if (event.owner != null && event.owner.depth > 0 && !event.concurrent) {
                if (waiting == null) {
                    waiting = new ArrayList<>();
                }
                waiting.add(event);
                continue;
            }
            dispatch(event);
        }
        if (waiting != null) {
            queue.addAll(waiting);
        }
        now = Math.max(now, target);
    }

    private void dispatch(Event event) {
        now = Math.max(now, event.at);
        Proc owner = event.owner;
        if (owner != null) {
            if (!owner.alive) {
                return;
            }
            if (owner.pausedUntilNanos > now) {
                at(owner.pausedUntilNanos, owner, event.concurrent, event.what, event.action);
                return;
            }
        }
        steps++;
        trace.event(now / 1_000_000, owner == null ? "world" : owner.name, event.what);
        Proc before = owner == null ? null : enter(owner);
        try {
            event.action.run();
        } catch (RuntimeException failure) {
            unexpected(failure);
        } finally {
            if (owner != null) {
                leave(owner, before);
            }
        }
    }

    /** {@code process} runs now: its randomness is the one drawn from. Returns who ran before, for {@link #leave}. */
    Proc running() {
        return running;
    }

    /** A machine's clock as NTP keeps it: within MaxClockSkewMillis of true time (so two may differ by twice that). */
    long baselineOffsetMillis() {
        long skew = TERMS.maxClockSkewMillis();
        return clocks.nextLong(-skew, skew + 1);
    }

    Proc enter(Proc process) {
        process.depth++;
        Proc before = running;
        running = process;
        SeededRandomness.use(process.stream);
        return before;
    }

    void leave(Proc process, Proc before) {
        process.depth--;
        running = before;
        SeededRandomness.use(before == null ? worldStream : before.stream);
    }

    // What the world observes.

    void note(String line) {
        trace.line("  " + line);
    }

    void issued(Proc issuer, Lease lease, long[] ids) {
        if (!issuer.alive) {
            note(issuer.name + " died before its " + ids.length + " IDs left it");
            return;
        }
        if (lease == null) {
            fail(issuer.name + " issued " + ids.length + " IDs with no lease held");
            return;
        }
        for (long id : ids) {
            String broken = invariants.issued(issuer.name, lease, id, trueMillis());
            if (broken != null) {
                fail(broken);
                return;
            }
        }
        issuer.lastIssuedMillis = trueMillis();
        trace.issued(issuer.name, ids[0], ids.length, lease.slot().toString());
    }

    void fail(String what) {
        if (violation == null) {
            violation = what;
            trace.line("VIOLATION " + what);
            stopped = true;
        }
    }

    /** An exception no caller expected (a bug in the simulator, or a 500 in the lease API): counted and traced, not a violation. */
    void unexpected(RuntimeException failure) {
        unexpectedCount++;
        String what = failure.getClass().getSimpleName() + ": " + failure.getMessage();
        if (unexpected == null) {
            unexpected = what;
        }
        trace.line("  unexpected " + failure.getClass().getSimpleName());
    }

    FaultClass networkFault(Holder holder) {
        for (NetworkWindow window : network) {
            if (window.holder() == holder && window.untilNanos() > now && window.random().nextInt(3) != 0) {
                return window.kind();
            }
        }
        return null;
    }

    FunctionEnv freeEnv(Region region) {
        List<FunctionEnv> free = new ArrayList<>();
        for (FunctionEnv env : region.envs) {
            if (env.alive && env.pausedUntilNanos <= now && env.depth == 0) {
                free.add(env);
            }
        }
        if (free.isEmpty() && !region.draining && region.envs.stream().filter(env -> env.alive).count() < MAX_ENVS) {
            return operator.addEnv(region); // Lambda runs a concurrent request in a new environment (a cold start)
        }
        return free.isEmpty() ? null : free.get(world.nextInt(free.size()));
    }

    Table newTable(String region) {
        String name = region + "-table-" + ++tables;
        return new Table(name, new InMemoryLeaseStore(), new InMemoryClaimMarkers(name));
    }

    String nextTableName(String region) {
        return region + "-table-" + ++tables;
    }

    /** The largest skew the lease terms allow (MaxClockSkewMillis), which clock faults stay inside of or go beyond. */
    long invariantsSkew() {
        return TERMS.maxClockSkewMillis();
    }

    /** Whether the faults were healed: a fault's action that runs later (deferred while its target slept) does nothing. */
    boolean healed() {
        return healAtNanos != Long.MAX_VALUE;
    }

    long healAtNanos() {
        return healAtNanos;
    }

    Region other(Region region) {
        return region == a ? b : a;
    }

    record NetworkWindow(Holder holder, FaultClass kind, long untilNanos, Random random) {
    }

    /** One step: at a time, of a process (null: the world), concurrent with its other steps or not. */
    record Event(long at, long seq, Proc owner, boolean concurrent, String what, Runnable action) implements Comparable<Event> {
        @Override
        public int compareTo(Event other) {
            return at != other.at ? Long.compare(at, other.at) : Long.compare(seq, other.seq);
        }
    }

    /** What one run found and did. */
    public record Result(long seed, String violation, long traceHash, long steps, List<Fault> faults, Map<FaultClass, Integer> injected,
                         double holderHours, long ids, long unexpectedCount, String unexpected, List<String> trace) {
    }
}
