package dev.snowid.simulator;

import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.region.Block;
import dev.snowid.region.BlockClaims;
import dev.snowid.region.ClaimRegistry;
import dev.snowid.region.Claimant;
import dev.snowid.testing.InMemoryClaimRegistry;
import java.util.Map;

/** The claim registry as a region reaches it: the in-memory registry, each call's latency, and its reachability. */
final class RegistryView implements ClaimRegistry {

    private final Simulation sim;
    private final InMemoryClaimRegistry registry;

    RegistryView(Simulation sim, InMemoryClaimRegistry registry) {
        this.sim = sim;
        this.registry = registry;
    }

    private void reach() {
        sim.advance(sim.latencyNanos() * 10); // another region
        if (sim.registryDownUntilNanos > sim.now()) {
            throw new LeaseStoreUnavailableException("simulated: the claim registry is unreachable", 1_000, null);
        }
    }

    @Override
    public BlockClaims claim(Block block, Claimant claimant, String claimId, String table, long now) {
        reach();
        return registry.claim(block, claimant, claimId, table, now);
    }

    @Override
    public BlockClaims release(Block block, Claimant claimant, long until) {
        reach();
        return registry.release(block, claimant, until);
    }

    @Override
    public Map<Block, BlockClaims> claims() {
        reach();
        return registry.claims();
    }
}
