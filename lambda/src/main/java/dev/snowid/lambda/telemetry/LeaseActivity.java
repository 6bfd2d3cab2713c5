package dev.snowid.lambda.telemetry;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What one request did with leases, for its metrics: acquisitions (with the lease-table calls
 * each took), renewals and losses per {@link LeaseHolder}, and the pool occupancy each Scan saw.
 * Recorded by {@link MeteredLeaseStore} and {@link LeaseMeter} into the activity of the request
 * being handled.
 */
public final class LeaseActivity {

    /** Held slots and pool size, as one Scan saw them. */
    public record Occupancy(PoolPart part, int held, int size) {
        public double percent() {
            return size == 0 ? 0 : 100.0 * held / size;
        }
    }

    private final Map<LeaseHolder, Integer> acquisitions = new EnumMap<>(LeaseHolder.class);
    private final Map<LeaseHolder, Integer> renewals = new EnumMap<>(LeaseHolder.class);
    private final Map<LeaseHolder, Integer> losses = new EnumMap<>(LeaseHolder.class);
    private final Map<LeaseHolder, List<Integer>> roundTrips = new EnumMap<>(LeaseHolder.class);
    private final List<Occupancy> occupancy = new ArrayList<>();
    private int storeCalls;
    private int storeCallsAtMark;

    /** Counts one lease-table call (a conditional write or a Scan). */
    void storeCall() {
        storeCalls++;
    }

    /** An acquisition starts here: its round trips are the store calls from now on. */
    void mark() {
        storeCallsAtMark = storeCalls;
    }

    void observed(Occupancy seen) {
        occupancy.add(seen);
    }

    /** A lease was acquired for {@code holder}; it took the store calls since the last {@link #mark()} (or the request's start). */
    public void acquired(LeaseHolder holder) {
        acquisitions.merge(holder, 1, Integer::sum);
        roundTrips.computeIfAbsent(holder, h -> new ArrayList<>()).add(storeCalls - storeCallsAtMark);
        storeCallsAtMark = storeCalls;
    }

    public void renewed(LeaseHolder holder) {
        renewals.merge(holder, 1, Integer::sum);
    }

    public void lost(LeaseHolder holder) {
        losses.merge(holder, 1, Integer::sum);
    }

    public int acquisitions(LeaseHolder holder) {
        return acquisitions.getOrDefault(holder, 0);
    }

    public int renewals(LeaseHolder holder) {
        return renewals.getOrDefault(holder, 0);
    }

    public int losses(LeaseHolder holder) {
        return losses.getOrDefault(holder, 0);
    }

    /** Lease-table calls of each acquisition for {@code holder}, in order. */
    public List<Integer> roundTrips(LeaseHolder holder) {
        return List.copyOf(roundTrips.getOrDefault(holder, List.of()));
    }

    public List<Occupancy> occupancy() {
        return List.copyOf(occupancy);
    }

    /** Whether anything happened to a lease of {@code holder}. */
    public boolean touched(LeaseHolder holder) {
        return acquisitions(holder) + renewals(holder) + losses(holder) > 0;
    }
}
