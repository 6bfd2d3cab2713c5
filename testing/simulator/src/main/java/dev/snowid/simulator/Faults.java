package dev.snowid.simulator;

import dev.snowid.Slot;
import dev.snowid.client.SimulatedClients;
import dev.snowid.client.SnowidClient;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Injects a plan's faults into a run, each at its time, and heals them all when the fault period ends. */
final class Faults {

    private Faults() {
    }

    static void schedule(Simulation sim, Fault fault) {
        long at = fault.atMillis() * 1_000_000;
        if (fault.kind() == FaultClass.TABLE_RESTORE) {
            // The backup is taken earlier, at a moment of the fault's own choosing.
            long backupAt = (long) (new Random(fault.seed()).nextDouble() * fault.atMillis()) * 1_000_000;
            Table[] backup = new Table[1];
            Region region = fault.target() % 2 == 0 ? sim.a : sim.b;
            sim.at(backupAt, null, "backup of " + region.name + "'s table", () -> {
                Table table = region.table;
                String name = sim.nextTableName(region == sim.a ? "a" : "b");
                backup[0] = new Table(name, table.engine.backup(), table.markers.copy(name));
            });
            sim.at(at, sim.operator, "fault " + fault, () -> {
                count(sim, fault);
                sim.operator.restore(region, backup[0]);
            });
            return;
        }
        sim.at(at, null, "fault " + fault, () -> strike(sim, fault));
    }

    private static void count(Simulation sim, Fault fault) {
        sim.injected.merge(fault.kind(), 1, Integer::sum);
    }

    private static void strike(Simulation sim, Fault fault) {
        Random random = new Random(fault.seed());
        long duration = fault.durationMillis() * 1_000_000;
        List<Holder> holders = alive(sim, Holder.class);
        List<Proc> machines = new ArrayList<>(alive(sim, Holder.class));
        machines.addAll(alive(sim, FunctionEnv.class));
        Holder holder = holders.isEmpty() ? null : holders.get(fault.target() % holders.size());
        Proc machine = machines.isEmpty() ? null : machines.get(fault.target() % machines.size());
        Table table = (fault.target() % 2 == 0 ? sim.a : sim.b).table;
        count(sim, fault);
        switch (fault.kind()) {
            case REQUEST_LOST, ANSWER_LOST, DUPLICATED, DELAYED -> {
                if (holder != null) {
                    sim.network.add(new Simulation.NetworkWindow(holder, fault.kind(), sim.now() + duration, random));
                }
            }
            case CRASH_RESTART -> {
                if (holder != null) {
                    sim.after(holder, false, 0, "killed (kill -9)", holder::kill);
                    sim.after(sim.operator, false, duration, "start " + holder.name + " again", () -> sim.operator.restartAs(holder));
                }
            }
            case PAUSE -> {
                if (machine != null && random.nextBoolean()) {
                    // Dispatched when the machine next runs, which a fleet-wide sleep may put after the heal: then no pause.
                    sim.after(machine, false, 0, "paused", () -> {
                        if (!sim.healed()) {
                            machine.pausedUntilNanos = sim.now() + duration;
                        }
                    });
                } else if (machine != null) {
                    machine.readsUntilPause = 1 + random.nextInt(6); // in the middle of what it does next
                    machine.pauseNanos = duration;
                }
            }
            case SNAPSHOT_COPIES -> {
                if (holder != null) {
                    sim.after(holder, false, 0, "snapshot", () -> snapshot(sim, holder, random));
                }
            }
            case CLOCK_OFFSET -> {
                if (machine != null) {
                    long skew = sim.invariantsSkew();
                    machine.clock.setOffset(random.nextLong(-skew, skew + 1));
                }
            }
            case CLOCK_BEYOND_SKEW -> {
                if (machine != null) {
                    long skew = sim.invariantsSkew();
                    long off = skew + 1_500 + random.nextLong(0, 3_600_000); // up to an hour: a VM's clock can be that far off
                    machine.clock.setOffset(random.nextBoolean() ? off : -off);
                    sim.after(null, false, duration, "clock of " + machine.name + " synchronised", machine.clock::synchronise);
                }
            }
            case CLOCK_DRIFT -> {
                if (machine != null) {
                    long ppm = random.nextLong(1_000, 200_000);
                    machine.clock.drift(random.nextBoolean() ? ppm : -ppm);
                    sim.after(null, false, duration, "clock of " + machine.name + " stops drifting", () -> machine.clock.drift(0));
                }
            }
            case CLOCK_JUMP -> {
                if (machine != null) {
                    long jump = random.nextLong(1, 120_000);
                    machine.clock.jump(random.nextBoolean() ? jump : -jump);
                }
            }
            case ENGINE_UNAVAILABLE -> table.unavailableUntilNanos = sim.now() + duration;
            case ENGINE_SLOW -> {
                table.slowUntilNanos = sim.now() + duration;
                table.slowMillis = random.nextLong(500, 15_000);
            }
            case WRITE_ERRORED -> {
                table.erroredUntilNanos = sim.now() + duration;
                table.errors = random;
            }
            case TTL_DELETION -> sleep(sim, duration, random);
            case BLOCK_HANDOVER -> {
                Region from = sim.operator.holderOfBlock();
                if (from != null && random.nextBoolean()) {
                    // The regions' clocks apart, each inside MaxClockSkewMillis: the leaving one's ahead, the next one's behind.
                    long skew = sim.invariantsSkew();
                    for (Proc process : sim.processes) {
                        Region region = process instanceof Holder h ? h.region : process instanceof FunctionEnv e ? e.region : null;
                        if (region != null && process.alive) {
                            process.clock.setOffset(region == from ? random.nextLong(0, skew + 1) : -random.nextLong(0, skew + 1));
                        }
                    }
                }
                sim.after(sim.operator, false, 0, "hand the block over", sim.operator::handOver);
                if (random.nextBoolean()) {
                    // and back, a while later: the first region claims again (its marker says released), while the
                    // table's writes fail now and then
                    sim.after(sim.operator, false, random.nextLong(60_000, 150_000) * 1_000_000, "hand the block back", () -> {
                        Region to = sim.operator.holderOfBlock();
                        if (to != null) {
                            sim.other(to).table.erroredUntilNanos = sim.now() + 30_000_000_000L;
                            sim.other(to).table.errors = random;
                        }
                        sim.operator.handOver();
                    });
                }
            }
            case REGISTRY_UNREACHABLE -> sim.registryDownUntilNanos = sim.now() + duration;
            case REQUEST_ID_SHARED -> {
                // A careless client copies another holder's acquisition id: holders X and Y (different holder texts) start
                // anew, Y two seconds after X, sending X's id. The id's binding to its holder must refuse Y.
                Holder x = holder;
                Holder y = null;
                for (int i = 1; i < holders.size() && y == null; i++) {
                    Holder candidate = holders.get((fault.target() + i) % holders.size());
                    if (!candidate.clientLabel().equals(x == null ? null : x.clientLabel())) {
                        y = candidate;
                    }
                }
                if (x != null && y != null) {
                    Holder borrower = y;
                    sim.after(x, false, 0, "killed to start again", x::kill);
                    sim.after(y, false, 0, "killed to start again", y::kill);
                    sim.after(sim.operator, false, 1_000_000, "start " + x.name + " again", () -> {
                        Holder x2 = sim.operator.restartAs(x);
                        sim.after(sim.operator, false, 2_000_000_000L, "start " + borrower.name + " again, with " + x2.name + "'s id",
                                () -> sim.operator.restartAs(borrower).link.borrowIdOf(x2.link));
                    });
                }
            }
            case ENV_RECYCLED -> {
                List<FunctionEnv> envs = alive(sim, FunctionEnv.class);
                if (!envs.isEmpty()) {
                    FunctionEnv env = envs.get(fault.target() % envs.size());
                    sim.after(env, false, 0, "recycled", () -> {
                        env.stop(false);
                        if (!env.region.draining) {
                            sim.operator.addEnv(env.region);
                        }
                    });
                }
            }
            case TABLE_RESTORE -> throw new IllegalStateException("scheduled apart");
        }
    }

    /**
     * A holder's CRaC checkpoint restored into copies: suspend (the hook before the checkpoint),
     * copy its client's whole object graph per copy, each copy with its own clock, randomness and
     * renewer ticks, then resume (the hook after the restore) in each; the original goes on or exits.
     */
    private static void snapshot(Simulation sim, Holder holder, Random random) {
        SnowidClient client = holder.client;
        if (client == null || client.isClosed()) {
            sim.note(holder.name + ": nothing to snapshot");
            return;
        }
        client.suspend();
        int copies = 2 + random.nextInt(2);
        for (int i = 1; i <= copies; i++) {
            long skew = sim.invariantsSkew();
            SimClock clock = new SimClock(sim, random.nextLong(-skew / 2, skew / 2 + 1));
            Holder copy = new Holder(sim, holder.region, holder.name + "/copy-" + i + "#" + sim.processes.size(),
                    holder.label + "/copy", clock, random.nextLong());
            Map<Object, Object> own = new IdentityHashMap<>();
            own.put(holder.clock, clock);
            own.put(holder.ticks, copy.ticks);
            own.put(holder.link, copy.link);
            SnowidClient restored = DeepCopy.of(client, own, o -> o instanceof Simulation || o instanceof Proc);
            holder.region.holders.add(copy);
            sim.processes.add(copy);
            sim.after(copy, false, 1_000_000, "restored from " + holder.name + "'s snapshot", () -> {
                SimulatedClients.restartRenewer(restored);
                restored.resume();
                copy.adopt(restored, holder.clientLabel());
            });
        }
        if (random.nextBoolean()) {
            sim.note(holder.name + " exits after its checkpoint");
            holder.kill();
        } else {
            client.resume();
        }
    }

    /** The whole fleet asleep (every process paused); DynamoDB's TTL deletes expired items at random moments meanwhile. */
    private static void sleep(Simulation sim, long duration, Random random) {
        long until = sim.now() + duration;
        sim.sleptNanos += Math.max(0, until - Math.max(sim.now(), sim.asleepUntilNanos));
        sim.asleepUntilNanos = Math.max(sim.asleepUntilNanos, until);
        for (Proc process : sim.processes) {
            process.pausedUntilNanos = Math.max(process.pausedUntilNanos, until);
        }
        sim.operator.pausedUntilNanos = Math.max(sim.operator.pausedUntilNanos, until);
        for (int i = 0; i < 3; i++) {
            long at = sim.now() + (long) (random.nextDouble() * duration);
            sim.at(at, null, "TTL deletes expired items", () -> {
                for (Region region : List.of(sim.a, sim.b)) {
                    Table table = region.table;
                    int deleted = table.engine.deleteTtlPassed(sim.trueMillis(), key -> {
                        boolean chosen = random.nextBoolean();
                        if (chosen && key.startsWith("slot ")) {
                            sim.invariants.deleted(table.name, Slot.ofIndex(Integer.parseInt(key.substring(5))));
                        }
                        return chosen;
                    });
                    sim.note("TTL deleted " + deleted + " items of " + table.name);
                }
            });
        }
    }

    static void healAll(Simulation sim) {
        for (Proc process : sim.processes) {
            process.clock.synchronise();
            process.pausedUntilNanos = Math.min(process.pausedUntilNanos, sim.now());
            process.readsUntilPause = 0; // a pause armed for "the middle of what it does next" is healed too
        }
        sim.network.clear();
        sim.a.table.heal();
        sim.b.table.heal();
        sim.registryDownUntilNanos = 0;
    }

    static <T extends Proc> List<T> alive(Simulation sim, Class<T> kind) {
        List<T> alive = new ArrayList<>();
        for (Proc process : sim.processes) {
            if (process.alive && kind.isInstance(process)) {
                alive.add(kind.cast(process));
            }
        }
        return alive;
    }
}
