package dev.snowid.simulator;

import dev.snowid.IdUnavailableException;
import dev.snowid.lease.LeasedGenerator;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.region.BlockHandover;
import dev.snowid.region.RegionGuard;

/**
 * A function execution environment of one region's stack: the lease API's side of every call (a
 * {@link PooledLeaseSource} guarded by the {@link RegionGuard}, as the function wires them) and
 * the function's own generator, renewing on the request path, serving {@code GET /ids}.
 */
final class FunctionEnv extends Proc {

    final Region region;
    final Table table;
    final TableClient store;
    final RegionGuard guard;
    final PooledLeaseSource source;
    final LeasedGenerator generator;

    FunctionEnv(Simulation sim, Region region, String name, long streamSeed) {
        super(sim, name, new SimClock(sim, sim.baselineOffsetMillis()), streamSeed);
        this.region = region;
        this.table = region.table;
        this.store = new TableClient(sim, table, this);
        BlockHandover handover = new BlockHandover(sim.registry, store, store, clock);
        this.guard = new RegionGuard(Simulation.BLOCK, region.claimant, handover);
        this.source = new PooledLeaseSource(store, Simulation.POOL, Simulation.TERMS, clock, name).guardedBy(guard);
        this.generator = LeasedGenerator.builder(source, Simulation.TERMS, clock, Simulation.CODEC).monotonicClock(clock).build();
    }

    void start() {
        sim.after(this, false, 500_000_000L + stream.nextInt(2_000) * 1_000_000L, "GET /ids", this::serveIds);
    }

    private void serveIds() {
        sim.after(this, false, 1_000_000_000L + sim.load.nextInt(3_000) * 1_000_000L, "GET /ids", this::serveIds);
        if (!region.draining) {
            try {
                long[] ids = generator.nextIds(1 + sim.load.nextInt(3));
                sim.issued(this, generator.currentLease().orElse(null), ids);
            } catch (IdUnavailableException refused) {
                sim.note(name + " /ids refused: " + refused.getClass().getSimpleName());
            }
        }
    }

    /** A recycled or drained environment: what it holds runs out; it answers nothing more. */
    void stop(boolean release) {
        if (release && alive) {
            try {
                generator.release();
            } catch (RuntimeException failed) {
                sim.note(name + " release failed: " + failed.getClass().getSimpleName());
            }
        }
        kill();
    }
}
