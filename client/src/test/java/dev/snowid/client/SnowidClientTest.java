package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.ClockBehindException;
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
 * The client's lease life cycle around {@link dev.snowid.lease.LeasedGenerator}, on a scripted lease
 * API (pure logic; the real API is exercised by the function's client tests and the agent's
 * lease-mode end-to-end tests).
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class SnowidClientTest {

    private static final Slot SLOT = Slot.of(9, 1);
    private static final SnowflakeCodec CODEC = SnowflakeCodec.TWITTER;

    private final ScriptedApi api = new ScriptedApi();
    private SnowidClient node;

    @AfterEach
    void stopRenewer() {
        api.renewals.countDown();
        if (node != null) {
            node.close();
        }
    }

    private static Lease lease(long floor, long expiresAt) {
        return new Lease(SLOT, "00112233445566778899aabbccddeeff", 4, LeaseWindow.of(floor, expiresAt));
    }

    @Test
    void aWeakSecretIsRefusedBeforeAnyCall() {
        // The last two are issue 32's: guessable, yet the hand-written estimate passed them.
        for (String weak : new String[] {"s3cret", "correcthorsebatterystaple2024", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SnowidClient.builder()
                    .leaseUrl("https://127.0.0.1:1").secret(weak).build());
            assertTrue(refused.getMessage().startsWith("[weak_lease_secret] secret is ") && refused.getMessage().contains("openssl rand -base64 32")
                    && !refused.getMessage().contains(weak), refused.getMessage());
        }
    }

    /** Issue 32: the secret never crosses the network in clear unless the caller opted in. */
    @Test
    void aSecretOverPlainHttpToAnotherHostIsRefusedBeforeAnyCallUnlessAllowed() {
        String secret = "q1OuYz0bT7m8k2Vf9QnLx3RaPw5JcE6dHs4Gi+Ut0/8=";
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SnowidClient.builder()
                .leaseUrl("http://snowid-runner.invalid:8080").secret(secret).startupDeadline(0).build());
        assertTrue(refused.getMessage().startsWith("[secret_over_plain_http] leaseUrl 'http://snowid-runner.invalid:8080' is plain http"
                + " to snowid-runner.invalid, which is not this machine") && refused.getMessage().endsWith("set allowPlainHttp(true)"),
                refused.getMessage());

        IdUnavailableException asked = assertThrows(IdUnavailableException.class, () -> SnowidClient.builder()
                .leaseUrl("http://snowid-runner.invalid:8080").secret(secret).allowPlainHttp(true).startupDeadline(0).build());
        assertTrue(ClientSettings.unanswered(asked), "opted in: the API was asked (and is not there): " + asked);
    }

    @Test
    void renewalsPlanWithTheShorterOfTheSettingAndTheGrantedLease() {
        assertEquals(5_000, LeaseRenewer.planningLeaseMillis(3_600_000, 5_000), "a setting longer than granted would make every call due");
        assertEquals(10_000, LeaseRenewer.planningLeaseMillis(10_000, 60_000));
        assertEquals(60_000, LeaseRenewer.planningLeaseMillis(0, 60_000), "no setting: what the API granted");
        assertEquals(5_000, LeaseRenewer.planningLeaseMillis(0, 3_000), "never below the API's minimum");
    }

    @Test
    void applicationThreadsNeverRenewEvenWhenARenewalIsDue() throws Exception {
        long t = System.currentTimeMillis();
        AtomicLong now = new AtomicLong(t);
        WallClock clock = now::get;
        node = start(lease(t, t + 5_000), clock);
        now.set(t + 4_000); // due: less than half left
        LongSupplier redirected = node::nextId;
        for (int i = 0; i < 1_000; i++) {
            assertEquals(t + 4_000, CODEC.decode(redirected.getAsLong()).unixMillis());
        }
        api.renewals.countDown(); // the renewer's renewal (blocked until now, like a slow API) may answer
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (node.currentLease().get().window().expiresAt() == t + 5_000 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(t + 9_000, node.currentLease().get().window().expiresAt(), "renewed by the renewer thread");
        assertTrue(!api.renewingThreads.isEmpty() && api.renewingThreads.stream().allMatch(LeaseRenewer.THREAD_NAME::equals),
                () -> "renewals must run on the renewer thread only, not on " + api.renewingThreads);
    }

    @Test
    void aClockALittleBehindTheFloorWaitsForIt() {
        long floor = System.currentTimeMillis() + 300; // set by a clock 300 ms ahead of ours
        node = start(lease(floor, floor + 60_000), WallClock.SYSTEM);
        long id = node.nextId();
        assertTrue(CODEC.decode(id).unixMillis() >= floor);
    }

    @Test
    void aClockFarBehindTheFloorStopsStartUpWithTheClockMessageAndFreesTheSlot() {
        long floor = System.currentTimeMillis() + 30_000;
        ClockBehindException error = assertThrows(ClockBehindException.class, () -> start(lease(floor, floor + 60_000), WallClock.SYSTEM));
        assertTrue(error.getMessage().contains("ms behind the new lease's floor"), error.getMessage());
        assertEquals(1, api.releases.get(), "released at once rather than left to run out");
    }

    @Test
    void afterShutdownNothingIsIssuedAndNoLeaseTaken() {
        long t = System.currentTimeMillis();
        node = start(lease(t, t + 60_000), WallClock.SYSTEM);
        node.nextId();
        node.close();
        node.close();
        assertEquals(1, api.releases.get(), "released once, however often closed");
        assertThrows(IdUnavailableException.class, () -> node.nextId());
        assertThrows(IdUnavailableException.class, () -> node.nextIds(2));
        ClientStats stats = node.stats();
        assertEquals(1, stats.idsIssued());
        assertEquals(java.util.Collections.singletonMap("unavailable", 2L), stats.refusals(), "refused after close, by reason");
        assertFalse(stats.lease().isPresent());
        assertEquals(-1, stats.leaseMillisLeft());
        assertEquals(0, api.acquisitions.get(), "the lease given at start-up only");
        assertEquals("ClientStats{no lease, 1 IDs, refusals {unavailable=2}, 0 renewals, 0 failed, 0 leases lost}", stats.toString());
    }

    @Test
    void statsPrintWhatTheyCountAndTheSlotButNeverTheOwnerToken() {
        long t = System.currentTimeMillis();
        Lease first = lease(t, t + 60_000);
        node = start(first, WallClock.SYSTEM);
        node.nextIds(3);
        String printed = node.stats().toString();
        assertTrue(printed.startsWith("ClientStats{slot " + first.slot() + " (fence " + first.fence() + "), "), printed);
        assertTrue(printed.endsWith(" ms left, 3 IDs, refusals {}, 0 renewals, 0 failed, 0 leases lost}"), printed);
        assertFalse(printed.contains(first.owner()), printed);
    }

    private SnowidClient start(Lease first, WallClock clock) {
        api.first = first;
        return SnowidClient.builder().leaseSource(api).clock(clock).codec(CODEC).log(ClientLogs.SILENT).build();
    }


    /** Renewals wait until the test lets them answer (a slow API), and record the thread that asked. */
    private static final class ScriptedApi implements LeaseSource {
        final CountDownLatch renewals = new CountDownLatch(1);
        final List<String> renewingThreads = new CopyOnWriteArrayList<>();
        final AtomicInteger acquisitions = new AtomicInteger();
        final AtomicInteger releases = new AtomicInteger();
        Lease first;

        @Override
        public synchronized Lease acquire() {
            Lease lease = first;
            first = null;
            if (lease != null) {
                return lease;
            }
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
