package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseWindow;
import dev.snowid.SnowflakeCodec;
import dev.snowid.SnowflakeId;
import dev.snowid.WallClock;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Two processes share a pool of one slot. Their clocks are off by seconds (ahead or behind),
 * either may freeze for longer than a lease and thaw, release, or forget its lease, in random
 * schedules from fixed seeds. Whatever happens, every ID is unique, lies in the window of the
 * lease that issued it, and the IDs of successive leases fall in disjoint time ranges.
 */
class LeaseHandoverTest {

    private static final long T = 1_700_000_000_000L;
    private static final LeaseTerms TERMS = LeaseTerms.of(5_000, 250);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;
    private static final int SCHEDULES = 400;
    private static final int STEPS = 400;

    /** What one lease (one fence) issued. */
    private static final class Issued {
        final int process;
        final LeaseWindow firstWindow;
        long minMillis = Long.MAX_VALUE;
        long maxMillis = Long.MIN_VALUE;
        boolean released;

        Issued(int process, LeaseWindow firstWindow) {
            this.process = process;
            this.firstWindow = firstWindow;
        }
    }

    private static final class Process {
        final int number;
        final long offsetMillis;
        final LeasedGenerator generator;
        long frozenUntil;

        Process(int number, long offsetMillis, ManualClock truth, InMemoryLeaseStore client) {
            this.number = number;
            this.offsetMillis = offsetMillis;
            WallClock clock = () -> truth.millis() + offsetMillis;
            client.setClockSkewMillis(offsetMillis); // the store's clock is the true one
            this.generator = new LeasedGenerator(
                    new PooledLeaseSource(client, SlotPool.of(0, 0, 0, 0), TERMS, clock, "process " + number), TERMS, clock, CODEC);
        }
    }

    private int takeoversAfterExpiry;
    private int handoversAfterRelease;
    private int refusals;
    private long idsIssued;

    @Test
    void idsStayUniqueAndInsideTheirLeaseAcrossFreezesTakeoversAndReleases() {
        for (int seed = 0; seed < SCHEDULES; seed++) {
            run(seed);
        }
        System.out.printf("handover: %d schedules, %d IDs, %d takeovers after expiry, %d handovers after release, %d refusals%n",
                SCHEDULES, idsIssued, takeoversAfterExpiry, handoversAfterRelease, refusals);
        assertTrue(takeoversAfterExpiry > SCHEDULES, "the schedules must make frozen holders lose their slot");
        assertTrue(handoversAfterRelease > SCHEDULES, "the schedules must hand over by release");
    }

    private void run(int seed) {
        Random random = new Random(seed);
        ManualClock truth = new ManualClock(T);
        InMemoryLeaseStore table = new InMemoryLeaseStore();
        Process[] processes = {
            new Process(0, offset(random), truth, table.newClient()),
            new Process(1, offset(random), truth, table.newClient()),
        };
        Map<Long, Issued> byFence = new TreeMap<>();
        Set<Long> ids = new HashSet<>();
        String context = "seed " + seed + ", offsets " + processes[0].offsetMillis + " and " + processes[1].offsetMillis + " ms";
        for (int step = 0; step < STEPS; step++) {
            truth.advance(random.nextInt(10) == 0 ? 1 + random.nextInt(12_000) : 1 + random.nextInt(400));
            Process process = processes[random.nextInt(2)];
            if (process.frozenUntil > truth.millis()) {
                continue;
            }
            int action = random.nextInt(100);
            try {
                if (action < 60) {
                    record(process, byFence, ids, context, process.generator.nextId());
                } else if (action < 80) {
                    for (long id : process.generator.nextIds(1 + random.nextInt(64))) {
                        record(process, byFence, ids, context, id);
                    }
                } else if (action < 86) {
                    process.generator.maintainLease();
                } else if (action < 92) {
                    Optional<Lease> lease = process.generator.currentLease();
                    process.generator.release();
                    if (lease.isPresent() && byFence.containsKey(lease.get().fence())) {
                        byFence.get(lease.get().fence()).released = true;
                    }
                } else if (action < 94) {
                    process.generator.forget();
                } else {
                    process.frozenUntil = truth.millis() + random.nextInt(3 * (int) TERMS.leaseMillis());
                }
            } catch (IdUnavailableException | LeaseLostException expected) {
                refusals++;
            } catch (RuntimeException unexpected) {
                throw new AssertionError(context + ", step " + step + ": " + unexpected, unexpected);
            }
        }
        checkPartition(byFence, context);
    }

    /** Mostly within the allowed skew (1.25 s with the Date header's second), sometimes beyond it. */
    private static long offset(Random random) {
        return random.nextInt(10) == 0 ? random.nextInt(5_001) - 2_500 : random.nextInt(2_401) - 1_200;
    }

    private void record(Process process, Map<Long, Issued> byFence, Set<Long> ids, String context, long id) {
        idsIssued++;
        if (!ids.add(id)) {
            fail(context + ": duplicate ID " + id + " from process " + process.number);
        }
        Lease lease = process.generator.currentLease().orElseThrow(() -> new AssertionError(context + ": an ID without a lease"));
        SnowflakeId decoded = CODEC.decode(id);
        if (!lease.window().contains(decoded.unixMillis())) {
            fail(context + ": ID at " + decoded.unixMillis() + " outside the window " + lease.window() + " of its " + lease);
        }
        Issued issued = byFence.get(lease.fence());
        if (issued == null) {
            issued = new Issued(process.number, lease.window());
            byFence.put(lease.fence(), issued);
            Issued previous = byFence.get(lease.fence() - 1);
            if (previous != null && previous.process != process.number) {
                if (previous.released) {
                    handoversAfterRelease++;
                } else {
                    takeoversAfterExpiry++;
                }
            }
        }
        assertEquals(process.number, issued.process, context + ": two processes issued under fence " + lease.fence());
        issued.minMillis = Math.min(issued.minMillis, decoded.unixMillis());
        issued.maxMillis = Math.max(issued.maxMillis, decoded.unixMillis());
    }

    /** Each lease's IDs lie before the floor of every later lease of the slot. */
    private static void checkPartition(Map<Long, Issued> byFence, String context) {
        for (Map.Entry<Long, Issued> earlier : byFence.entrySet()) {
            for (Map.Entry<Long, Issued> later : byFence.entrySet()) {
                if (later.getKey() > earlier.getKey() && earlier.getValue().maxMillis >= later.getValue().firstWindow.floor()) {
                    fail(context + ": fence " + earlier.getKey() + " issued up to " + earlier.getValue().maxMillis
                            + " but fence " + later.getKey() + " starts at " + later.getValue().firstWindow.floor());
                }
            }
        }
    }
}
