package dev.snowid.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.testing.CountingLeaseStore;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Acquisitions that carry a request id ({@link RequestClaim}): the id answers the holder that
 * sent it first, a retry gets its own lease back with keyed calls only, and concurrent
 * acquisitions with one id answer at most one lease. Pure protocol logic, on the in-memory table
 * ({@code LeaseStoreContract} holds it to the engines' conditions); the engines' own race is
 * {@code RequestIdRaceTest} in the lambda module.
 */
class RequestIdAcquisitionTest {

    private static final long T = 1_700_000_000_000L;
    private static final LeaseTerms TERMS = LeaseTerms.of(60_000, 2_000);
    private static final SlotPool POOL = SlotPool.of(0, 3, 0, 31);
    private static final String ID = "5f0c9e3a1b7d42c8e6a0f19b3d5c7e21";

    private final ManualClock clock = new ManualClock(T);
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final CountingLeaseStore counted = new CountingLeaseStore(table);
    private final PooledLeaseSource source = new PooledLeaseSource(counted, POOL, TERMS, clock, "unused");

    @Test
    void aFirstAcquisitionWithAnIdClaimsProbesAndRecordsWithoutAScan() {
        Lease lease = source.acquire("alice", ID);
        assertEquals("writes 3, scans 0, reads 0", counts(), "the claim (which also shows the store's clock), the probe, the record");
        RequestClaim claim = table.claimOf(ID).get();
        assertEquals(lease.slot() + " " + lease.owner(), claim.slot().get() + " " + claim.owner());
        assertEquals("alice", claim.holder());
    }

    @Test
    void aRetryAfterALostAnswerIsAnsweredWithItsOwnLeaseByOneClaimAndOneKeyedRead() {
        Lease first = source.acquire("alice", ID);
        clock.advance(1_000);
        long writes = counted.writes();
        Lease again = source.acquire("alice", ID);
        assertEquals(render(first), render(again), "the same slot, owner token, fence and window");
        assertEquals(writes + 1, counted.writes(), "the claim write only, which finds the earlier claim");
        assertEquals("scans 0, reads 1", "scans " + counted.scans() + ", reads " + counted.reads());
        assertEquals(1, table.rows().size(), "one slot taken");
    }

    /**
     * Found by the simulator (the hour run's seed 2087992): a duplicated acquisition, served late by
     * an environment whose clock had jumped, handed back the lease the first answer had granted while
     * its holder issued under it, so the slot was free for another holder inside that window.
     */
    @Test
    void aRetryRefusedForSkewLeavesTheLeaseItsFirstAnswerGrantedInPlace() {
        Lease first = source.acquire("alice", ID);
        table.setClockSkewMillis(120_000); // the environment answering the retry: its clock jumped two minutes ahead
        assertThrows(ClockSkewException.class, () -> source.acquire("alice", ID));
        InMemoryLeaseStore.Row row = table.row(first.slot()).get();
        // alice may be issuing under it: it stays hers, to its expiry
        assertEquals(first.owner() + " " + first.fence() + " " + first.window().expiresAt(), row.owner + " " + row.fence + " " + row.expiresAt);
        assertEquals(null, row.releasedBy, "not released");
    }

    @Test
    void theSameIdFromAnotherHolderIsRefusedAndGrantedNothing() {
        Lease alices = source.acquire("alice", ID);
        long writes = counted.writes();
        RequestIdConflictException refused = assertThrows(RequestIdConflictException.class, () -> source.acquire("mallory", ID));
        assertTrue(refused.getMessage().contains("first sent for another holder"), refused.getMessage());
        assertFalse(refused.getMessage().contains("alice"), "never names the other holder: " + refused.getMessage());
        assertEquals(writes + 1, counted.writes(), "the claim write, which changed nothing");
        assertEquals(0, counted.reads() + counted.scans(), "nothing of alice's lease was read");
        assertEquals(1, table.rows().size());
        assertEquals(alices.owner(), table.claimOf(ID).get().owner());
        assertEquals(alices.owner(), source.acquire("alice", ID).owner(), "alice's retry is still answered");
        // In aws_iam mode the lease API makes the verified caller part of the holder: another principal, same name, is another holder.
        assertThrows(RequestIdConflictException.class, () -> source.acquire("alice ", ID));
    }

    @Test
    void aRetryWhoseGrantExpiredLeasesAnewInItsPlace() {
        Lease first = source.acquire("alice", ID);
        clock.advance(60_001);
        Lease second = source.acquire("alice", ID);
        assertNotEquals(first.owner(), second.owner());
        RequestClaim claim = table.claimOf(ID).get();
        assertEquals(second.slot() + " " + second.owner(), claim.slot().get() + " " + claim.owner());
        assertEquals(render(second), render(source.acquire("alice", ID)), "and that one is answered again");
    }

    @Test
    void aRetryWhoseGrantWasRenewedOrReleasedLeasesAnew() {
        Lease first = source.acquire("alice", ID);
        source.renew(first);
        Lease afterRenewal = source.acquire("alice", ID);
        assertNotEquals(first.owner(), afterRenewal.owner(), "renewed: the grant is no longer as granted");
        source.release(afterRenewal, 0);
        Lease afterRelease = source.acquire("alice", ID);
        assertNotEquals(afterRenewal.owner(), afterRelease.owner());
    }

    /**
     * The interrupted pair: an attempt claimed the id and took a slot, and ended before it
     * recorded the grant (its answer never went out). The retry leases anew; the unrecorded
     * slot is held by nobody until it expires, and is never answered.
     */
    @Test
    void aRetryOfAnAttemptThatRecordedNoGrantLeasesAnewAndTheUnrecordedSlotIsNeverAnswered() {
        table.claim(ID, "alice", "a1a1a1a1b2b2b2b2c3c3c3c3d4d4d4d4", T + 60_000);
        Slot orphan = Slot.of(0, 0);
        table.tryAcquire(orphan, "a1a1a1a1b2b2b2b2c3c3c3c3d4d4d4d4", "alice", T, T + 60_000, ID).get();
        Lease retried = source.acquire("alice", ID);
        assertNotEquals(orphan, retried.slot());
        assertEquals(render(retried), render(source.acquire("alice", ID)));
        assertEquals(2, table.rows().size(), "the unrecorded slot stays taken until its lease ends");
    }

    @Test
    void aRetryAfterAPoolThatWasFullLeasesOnceASlotIsFree() {
        PooledLeaseSource oneSlot = new PooledLeaseSource(counted, SlotPool.of(0, 0, 0, 0), TERMS, clock, "unused");
        Lease other = oneSlot.acquire("bob", null);
        assertThrows(NoFreeSlotException.class, () -> oneSlot.acquire("alice", ID));
        oneSlot.release(other, 0);
        Lease lease = oneSlot.acquire("alice", ID);
        assertEquals(lease.owner(), table.claimOf(ID).get().owner());
    }

    /** The retry overtakes its original: it records first, and the original hands its slot back unanswered. */
    @Test
    void anAttemptOvertakenByItsRetryHandsItsSlotBackAndIsRefused() {
        List<Lease> retried = new ArrayList<>();
        AtomicBoolean overtaken = new AtomicBoolean();
        LeaseStore original = (LeaseStore) Proxy.newProxyInstance(LeaseStore.class.getClassLoader(), new Class<?>[] {LeaseStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("recordGrant") && overtaken.compareAndSet(false, true)) {
                        retried.add(source.acquire("alice", ID)); // the retry, on another environment, runs to its end first
                    }
                    try {
                        return method.invoke(table, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        PooledLeaseSource first = new PooledLeaseSource(original, POOL, TERMS, clock, "unused");

        assertThrows(AcquisitionSupersededException.class, () -> first.acquire("alice", ID));

        Lease answered = retried.get(0);
        assertEquals(render(answered), render(source.acquire("alice", ID)), "the id answers the retry's lease");
        int held = 0;
        for (InMemoryLeaseStore.Row row : table.rows().values()) {
            held += row.owner == null ? 0 : 1;
        }
        assertEquals(1, held, "the original's slot was handed back: " + table.rows());
    }

    @Test
    void concurrentAcquisitionsWithOneIdAnswerAtMostOneLeaseWhoeverSendsThem() throws Exception {
        int threads = 8;
        int rounds = 300;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        int superseded = 0;
        try {
            for (boolean sameHolder : new boolean[] {false, true}) {
                for (int round = 0; round < rounds; round++) {
                    InMemoryLeaseStore shared = new InMemoryLeaseStore();
                    String id = AcquisitionRequest.drawId();
                    CyclicBarrier start = new CyclicBarrier(threads);
                    List<Future<Object>> answers = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        String holder = sameHolder ? "alice" : "holder-" + t;
                        PooledLeaseSource environment = new PooledLeaseSource(shared.newClient(), POOL, TERMS, clock, "unused");
                        answers.add(pool.submit(() -> {
                            start.await(10, TimeUnit.SECONDS);
                            try {
                                return environment.acquire(holder, id);
                            } catch (RequestIdConflictException | AcquisitionSupersededException refused) {
                                return refused;
                            }
                        }));
                    }
                    Set<String> leases = new HashSet<>();
                    int granted = 0;
                    for (Future<Object> answer : answers) {
                        Object got = answer.get(10, TimeUnit.SECONDS);
                        if (got instanceof Lease) {
                            leases.add(render((Lease) got));
                            granted++;
                        } else if (!sameHolder) {
                            assertTrue(got instanceof RequestIdConflictException, "another holder is refused: " + got);
                        } else {
                            superseded++;
                        }
                    }
                    int held = 0;
                    for (InMemoryLeaseStore.Row row : shared.rows().values()) {
                        held += row.owner == null ? 0 : 1;
                    }
                    String what = (sameHolder ? "one holder" : threads + " holders") + ", round " + round;
                    assertEquals(1, leases.size(), what + ": one lease answered, " + leases);
                    assertEquals(1, held, what + ": one slot held at the end, " + shared.rows());
                    if (!sameHolder) {
                        assertEquals(1, granted, what);
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("[snowid] %d rounds of %d concurrent acquisitions with one id: one lease answered in each;"
                + " with one holder, %d attempts were overtaken by their retries and handed their slot back%n", rounds * 2, threads, superseded);
    }

    private String counts() {
        return "writes " + counted.writes() + ", scans " + counted.scans() + ", reads " + counted.reads();
    }

    private static String render(Lease lease) {
        return lease + " " + lease.owner();
    }
}
