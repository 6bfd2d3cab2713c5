package dev.snowid.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseSource;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's lease life cycle around {@link dev.snowid.lease.LeasedGenerator}, on a scripted lease
 * API (pure logic; the real API is exercised by the lease-mode end-to-end tests).
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class LeasedNodeTest {

    private static final Slot SLOT = Slot.of(9, 1);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;

    private final ScriptedApi api = new ScriptedApi();
    private LeasedNode node;

    @AfterEach
    void stopRenewer() {
        api.renewals.countDown();
        if (node != null) {
            node.shutdown();
        }
    }

    private static Lease lease(long floor, long expiresAt) {
        return new Lease(SLOT, "00112233445566778899aabbccddeeff", 4, LeaseWindow.of(floor, expiresAt));
    }

    @Test
    void renewalsPlanWithTheShorterOfTheSettingAndTheGrantedLease() {
        assertEquals(5_000, LeasedNode.planningLeaseMillis(3_600_000, 5_000), "a setting longer than granted would make every call due");
        assertEquals(10_000, LeasedNode.planningLeaseMillis(10_000, 60_000));
        assertEquals(60_000, LeasedNode.planningLeaseMillis(0, 60_000), "no setting: what the API granted");
        assertEquals(5_000, LeasedNode.planningLeaseMillis(0, 3_000), "never below the API's minimum");
    }

    @Test
    void applicationThreadsNeverRenewEvenWhenARenewalIsDue() throws Exception {
        long t = System.currentTimeMillis();
        AtomicLong now = new AtomicLong(t);
        WallClock clock = now::get;
        node = LeasedNode.start(api, lease(t, t + 5_000), 0, CODEC, clock, "test");
        now.set(t + 4_000); // due: less than half left
        LongSupplier redirected = node.generator();
        for (int i = 0; i < 1_000; i++) {
            assertEquals(t + 4_000, CODEC.decode(redirected.getAsLong()).unixMillis());
        }
        api.renewals.countDown(); // the renewer's renewal (blocked until now, like a slow API) may answer
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (node.currentLease().get().window().expiresAt() == t + 5_000 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(t + 9_000, node.currentLease().get().window().expiresAt(), "renewed by the renewer thread");
        assertTrue(!api.renewingThreads.isEmpty() && api.renewingThreads.stream().allMatch("snowid-lease-renewer"::equals),
                () -> "renewals must run on the renewer thread only, not on " + api.renewingThreads);
    }

    @Test
    void aClockALittleBehindTheFloorWaitsForIt() {
        long floor = System.currentTimeMillis() + 300; // set by a clock 300 ms ahead of ours
        node = LeasedNode.start(api, lease(floor, floor + 60_000), 0, CODEC, WallClock.SYSTEM, "test");
        long id = node.generator().getAsLong();
        assertTrue(CODEC.decode(id).unixMillis() >= floor);
    }

    @Test
    void aClockFarBehindTheFloorStopsStartUpWithTheClockMessageAndFreesTheSlot() {
        long floor = System.currentTimeMillis() + 30_000;
        AgentConfigurationException error = assertThrows(AgentConfigurationException.class,
                () -> LeasedNode.start(api, lease(floor, floor + 60_000), 0, CODEC, WallClock.SYSTEM, "snowid.lease.url='x'"));
        assertTrue(error.getMessage().startsWith("snowid.lease.url='x': the lease ") && error.getMessage().contains("ms behind the new lease's floor"),
                error.getMessage());
        assertEquals(1, api.releases.get(), "released at once rather than left to run out");
    }

    @Test
    void afterShutdownNothingIsIssuedAndNoLeaseTaken() {
        long t = System.currentTimeMillis();
        node = LeasedNode.start(api, lease(t, t + 60_000), 0, CODEC, WallClock.SYSTEM, "test");
        node.generator().getAsLong();
        node.shutdown();
        assertEquals(1, api.releases.get());
        assertThrows(IdUnavailableException.class, () -> node.generator().getAsLong());
        assertEquals(0, api.acquisitions.get(), "the lease given at start-up only");
    }

    /** Renewals wait until the test lets them answer (a slow API), and record the thread that asked. */
    private static final class ScriptedApi implements LeaseSource {
        final CountDownLatch renewals = new CountDownLatch(1);
        final List<String> renewingThreads = new CopyOnWriteArrayList<>();
        final AtomicInteger acquisitions = new AtomicInteger();
        final AtomicInteger releases = new AtomicInteger();

        @Override
        public Lease acquire() {
            acquisitions.incrementAndGet();
            throw new IdUnavailableException("the scripted API leases nothing after start-up", 1000);
        }

        @Override
        public Lease renew(Lease lease) {
            renewingThreads.add(Thread.currentThread().getName());
            try {
                renewals.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Lease(lease.slot(), lease.owner(), lease.fence(),
                    LeaseWindow.of(lease.window().floor(), lease.window().expiresAt() + 4_000));
        }

        @Override
        public void release(Lease lease, long lastIssuedMillis) {
            releases.incrementAndGet();
        }
    }
}
