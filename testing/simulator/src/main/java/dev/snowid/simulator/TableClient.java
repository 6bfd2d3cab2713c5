package dev.snowid.simulator;

import dev.snowid.Slot;
import dev.snowid.lease.HeldSlot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseLostException;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.RequestClaim;
import dev.snowid.region.Block;
import dev.snowid.region.ClaimMarker;
import dev.snowid.region.ClaimMarkers;
import dev.snowid.region.Claimant;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * One process's connection to a lease table: the in-memory table underneath, with the engine's
 * faults (unavailable, slow, a write that succeeded answered with an error), each call's latency,
 * and the store's clock measured on every answer as the DynamoDB store does from the {@code Date}
 * header. What the table confirmed goes to the {@link Invariants}' ledger as it happens.
 */
final class TableClient implements LeaseStore, ClaimMarkers {

    private final Simulation sim;
    private final Table table;
    private final Proc process;
    private final InMemoryLeaseStore engine;
    private long skewMillis;
    private boolean skewKnown;

    TableClient(Simulation sim, Table table, Proc process) {
        this.sim = sim;
        this.table = table;
        this.process = process;
        this.engine = table.engine.newClient();
    }

    private <T> T call(boolean write, Supplier<T> operation) {
        long sent = process.clock.millis();
        sim.advance(sim.latencyNanos());
        if (table.unavailableUntilNanos > sim.now()) {
            throw new LeaseStoreUnavailableException("simulated: the lease table " + table.name + " is unavailable", 1_000, null);
        }
        if (table.slowUntilNanos > sim.now()) {
            sim.advance(table.slowMillis * 1_000_000);
        }
        if (!process.alive) {
            throw new LeaseStoreUnavailableException("simulated: " + process.name + " died before its call reached the table", 1_000, null);
        }
        T result;
        try {
            result = operation.get();
        } catch (LeaseLostException refused) {
            measure(sent);
            throw refused;
        }
        sim.advance(sim.latencyNanos());
        if (write && table.erroredUntilNanos > sim.now() && table.errors.nextBoolean()) {
            throw new LeaseStoreUnavailableException("simulated: the write to " + table.name + " succeeded, its answer was an error", 1_000, null);
        }
        measure(sent);
        return result;
    }

    private void measure(long sentAtMillis) {
        long received = process.clock.millis();
        long serverSecond = Math.floorDiv(sim.trueMillis(), 1_000) * 1_000;
        skewMillis = sentAtMillis + (received - sentAtMillis) / 2 - (serverSecond + LeaseTerms.DATE_HEADER_RESOLUTION_MILLIS / 2);
        skewKnown = true;
    }

    @Override
    public Optional<Lease> tryAcquire(Slot slot, String owner, String holder, long now, long expiresAt, String requestId) {
        return call(true, () -> {
            Optional<Lease> won = engine.tryAcquire(slot, owner, holder, now, expiresAt, requestId);
            won.ifPresent(lease -> sim.invariants.granted(table.name, lease));
            return won;
        });
    }

    @Override
    public Optional<Lease> tryAcquireUnheld(Slot slot, String owner, String holder, long now, long expiresAt) {
        return call(true, () -> {
            Optional<Lease> won = engine.tryAcquireUnheld(slot, owner, holder, now, expiresAt);
            won.ifPresent(lease -> sim.invariants.granted(table.name, lease));
            return won;
        });
    }

    @Override
    public RequestClaim claim(String requestId, String holder, String owner, long until) {
        return call(true, () -> engine.claim(requestId, holder, owner, until));
    }

    @Override
    public boolean recordGrant(RequestClaim read, Lease lease) {
        return call(true, () -> engine.recordGrant(read, lease));
    }

    @Override
    public Optional<Lease> grantedFor(RequestClaim claim, long now) {
        return call(false, () -> engine.grantedFor(claim, now));
    }

    @Override
    public Lease renew(Slot slot, String owner, long fence, long newExpiresAt) {
        return call(true, () -> {
            Lease renewed = engine.renew(slot, owner, fence, newExpiresAt);
            sim.invariants.renewed(table.name, renewed);
            return renewed;
        });
    }

    @Override
    public void release(Slot slot, String owner, long fence, long lastIssuedMillis) {
        call(true, () -> {
            engine.release(slot, owner, fence, lastIssuedMillis);
            sim.invariants.released(table.name, slot, owner, engine.row(slot).get().expiresAt);
            return null;
        });
    }

    @Override
    public Map<Slot, Long> ownedExpiries() {
        return call(false, engine::ownedExpiries);
    }

    @Override
    public List<HeldSlot> heldSlots() {
        return call(false, engine::heldSlots);
    }

    @Override
    public OptionalLong clockSkewMillis() {
        return skewKnown ? OptionalLong.of(skewMillis) : OptionalLong.empty();
    }

    @Override
    public void forgetClockSkew() {
        skewKnown = false;
    }

    // The claim markers: items of the same table, behind the same faults.

    @Override
    public String table() {
        return table.name;
    }

    @Override
    public Optional<ClaimMarker> read(Block block) {
        return call(false, () -> table.markers.read(block));
    }

    @Override
    public ClaimMarker markClaimed(Block block, Claimant claimant, String claimId, long floor, long now, boolean replacingRelease) {
        return call(true, () -> table.markers.markClaimed(block, claimant, claimId, floor, now, replacingRelease));
    }

    @Override
    public ClaimMarker markReleased(Block block, Claimant claimant, String retiredBy, long now) {
        return call(true, () -> table.markers.markReleased(block, claimant, retiredBy, now));
    }
}
