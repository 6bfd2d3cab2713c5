package dev.snowid.simulator;

import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.BlockClaimedException;
import dev.snowid.region.BlockHandover;
import dev.snowid.region.Claim;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.LiveLeasesException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The people and machinery around the fleet: they start stacks' environments and holders, and,
 * when the plan says so, move the block to the other region or restore a region's lease table
 * (docs/multi-region.md, docs/operate.md), with the real {@link BlockHandover}.
 */
final class Operator extends Proc {

    /** An operator keeps at it until it works: every step can be run again after a failure. */
    private static final int ATTEMPTS = 100_000;
    private static final long RETRY_NANOS = 1_000_000_000L;

    Operator(Simulation sim) {
        super(sim, "operator", new SimClock(sim, 0), sim.seed * 31 + 7);
    }

    FunctionEnv addEnv(Region region) {
        FunctionEnv env = new FunctionEnv(sim, region, region.name + "-env-" + ++region.envCount, sim.seed * 1_000_003 + region.envCount
                + (region == sim.a ? 0 : 500));
        region.envs.add(env);
        sim.processes.add(env);
        env.start();
        return env;
    }

    Holder addHolder(Region region, String name, long offsetMillis) {
        Holder holder = new Holder(sim, region, name, name, new SimClock(sim, offsetMillis), (sim.seed << 8) ^ name.hashCode());
        region.holders.add(holder);
        sim.processes.add(holder);
        holder.start();
        return holder;
    }

    /** A holder that died started again as a new process of its lineage, unless its region is being drained; returns it (or the old one). */
    Holder restartAs(Holder old) {
        if (old.region.draining || !old.region.holders.remove(old)) {
            return old;
        }
        return addHolder(old.region, old.label.replaceAll("#.*", "") + "#" + sim.processes.size(), sim.baselineOffsetMillis());
    }

    /** Stops a region's holders (closing their clients) and environments (releasing), each when it is between calls. */
    void drain(Region region) {
        region.draining = true;
        for (Holder holder : new ArrayList<>(region.holders)) {
            if (holder.pausedUntilNanos > sim.now() || holder.readsUntilPause > 0) {
                holder.kill(); // a stopped JVM cannot be asked to close: killed, as 'stop every holder' means
            } else {
                sim.after(holder, false, 0, "stopped by the operator", holder::stop);
            }
        }
        for (FunctionEnv env : new ArrayList<>(region.envs)) {
            if (env.pausedUntilNanos > sim.now() || env.readsUntilPause > 0) {
                env.kill(); // a frozen environment is never thawed again: its stack is drained
            } else {
                // after the holders: their releases go through the stack's lease API
                sim.after(env, false, 200_000_000L, "stopped by the operator", () -> env.stop(true));
            }
        }
    }

    /** Starts a drained region again: fresh environments, and its holders as new processes. */
    void restart(Region region) {
        region.draining = false;
        region.envs.removeIf(env -> !env.alive);
        while (region.envs.size() < 2 && !region.draining) {
            addEnv(region);
        }
        List<Holder> gone = new ArrayList<>(region.holders);
        region.holders.clear();
        for (Holder old : gone) {
            String base = old.label.contains("#") ? old.label.substring(0, old.label.indexOf('#')) : old.label;
            String next = base + "#" + (sim.processes.size());
            if (old.alive) {
                region.holders.add(old);
            } else if (!old.label.contains("/copy")) {
                addHolder(region, next, sim.baselineOffsetMillis());
            }
        }
    }

    Region holderOfBlock() {
        Claim current = sim.registryEngine.claims().get(Simulation.BLOCK).current();
        for (Region region : List.of(sim.a, sim.b)) {
            if (current != null && current.heldBy(region.claimant, region.table.name)) {
                return region;
            }
        }
        return null;
    }

    private BlockHandover handover(Region region) {
        TableClient table = new TableClient(sim, region.table, this);
        return new BlockHandover(sim.registry, table, table, clock);
    }

    /** Moves the block from the region holding it to the other: drain, release (again until it succeeds), claim, start again. */
    void handOver() {
        Region from = holderOfBlock();
        if (from == null || from.draining) {
            sim.note("operator: no region holds the block now; nothing to hand over");
            return;
        }
        drain(from);
        sim.after(this, false, 300_000_000L, "release the block from " + from.name, () -> release(from, 1));
    }

    private void release(Region from, int attempt) {
        try {
            long until = handover(from).release(Simulation.BLOCK, from.claimant);
            sim.note("operator: released the block from " + from.name + " until " + until);
        } catch (LiveLeasesException | LeaseStoreUnavailableException | BlockClaimedException refused) {
            sim.note("operator: release refused: " + refused.getClass().getSimpleName());
            if (attempt < ATTEMPTS) {
                sim.after(this, false, RETRY_NANOS, "release the block from " + from.name, () -> release(from, attempt + 1));
            } else {
                restart(from);
            }
            return;
        }
        Region to = sim.other(from);
        Optional<ClaimMarker> marker = to.table.markers.read(Simulation.BLOCK);
        if (marker.isPresent() && marker.get().state() == ClaimMarker.State.RELEASED) {
            claimAgain(to, 1);
        }
        restart(from);
    }

    private void claimAgain(Region region, int attempt) {
        try {
            sim.note("operator: claimed again for " + region.name + ": " + handover(region).claimAgain(Simulation.BLOCK, region.claimant));
        } catch (LeaseStoreUnavailableException | BlockClaimedException refused) {
            sim.note("operator: claim refused: " + refused.getClass().getSimpleName());
            if (attempt < ATTEMPTS) {
                sim.after(this, false, RETRY_NANOS, "claim the block again for " + region.name, () -> claimAgain(region, attempt + 1));
            }
        }
    }

    /**
     * Restores {@code region}'s table from {@code backup} after the documented wait: drain, wait
     * the lease plus the largest skew, point the stack at the restored table; where the registry
     * gives the block to this stack's old table, release it as a deleted table's and claim it again.
     */
    void restore(Region region, Table backup) {
        if (region.draining) {
            sim.note("operator: " + region.name + " is busy; no restore");
            return;
        }
        drain(region);
        sim.after(this, false, 1_000_000_000L, "wait for " + region.name + " to stop", () -> restoreOnceStopped(region, backup));
    }

    /** 'Stop every holder, wait LeaseMillis + MaxClockSkewMillis': a request in flight finishes first. */
    private void restoreOnceStopped(Region region, Table backup) {
        boolean running = region.holders.stream().anyMatch(p -> p.alive) || region.envs.stream().anyMatch(p -> p.alive);
        if (running) {
            sim.after(this, false, 1_000_000_000L, "wait for " + region.name + " to stop", () -> restoreOnceStopped(region, backup));
            return;
        }
        long wait = (Simulation.TERMS.leaseMillis() + Simulation.TERMS.maxClockSkewMillis() + 1_000) * 1_000_000;
        sim.after(this, false, wait, "restore " + region.name + "'s table from its backup", () -> {
            sim.invariants.tableGone(region.table.name);
            region.table = backup;
            region.restored = true;
            Claim current = sim.registryEngine.claims().get(Simulation.BLOCK).current();
            if (current != null && current.claimant().equals(region.claimant)) {
                releaseDeleted(region, 1);
            } else {
                restart(region);
            }
        });
    }

    private void releaseDeleted(Region region, int attempt) {
        try {
            handover(region).release(Simulation.BLOCK, region.claimant, true);
            claimAgain(region, 1);
        } catch (LiveLeasesException | LeaseStoreUnavailableException | BlockClaimedException refused) {
            sim.note("operator: release of the restored table's claim refused: " + refused.getClass().getSimpleName());
            if (attempt < ATTEMPTS) {
                sim.after(this, false, RETRY_NANOS, "release the block of a deleted table", () -> releaseDeleted(region, attempt + 1));
                return;
            }
        }
        restart(region);
    }
}
