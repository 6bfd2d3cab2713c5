package dev.snowid.region;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.testing.InMemoryClaimMarkers;
import dev.snowid.testing.InMemoryClaimRegistry;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import org.junit.jupiter.api.Test;

/** What the guard does when the registry's region is down, and how a guarded pool refuses. */
class RegionGuardTest {

    private static final long T = 1_700_000_000_000L;
    private static final Block BLOCK = Block.of(6);
    private static final Claimant EU = Claimant.of("eu-west-1", "snowid");

    private final ManualClock clock = new ManualClock(T);
    private final InMemoryClaimRegistry registry = new InMemoryClaimRegistry();
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();
    private final InMemoryClaimMarkers markers = new InMemoryClaimMarkers();

    private RegionGuard guard() {
        return new RegionGuard(BLOCK, EU, markers, new BlockHandover(registry, table, markers, clock));
    }

    @Test
    void aStackThatConfirmedItsClaimKeepsAcquiringWhileTheRegistryIsDown() {
        guard().beforeAcquisition();
        registry.setUnavailable(true);

        RegionGuard coldStart = guard();
        coldStart.beforeAcquisition();

        assertEquals(RegionGuard.State.CLAIMED, coldStart.state());
    }

    @Test
    void aNewClaimWaitsForTheRegistryAndSaysSo() {
        registry.setUnavailable(true);
        RegionGuard guard = guard();

        BlockNotClaimedException refused = assertThrows(BlockNotClaimedException.class, guard::beforeAcquisition);

        assertTrue(refused.getMessage().contains("registry") && refused.getMessage().contains(EU.toString()), refused.getMessage());
        assertEquals(RegionGuard.RETRY_AFTER_REGISTRY_MILLIS, refused.retryAfterMillis());
        assertEquals(RegionGuard.State.REFUSED, guard.state());
        registry.setUnavailable(false);
        guard.beforeAcquisition();
        assertEquals(RegionGuard.State.CLAIMED, guard.state());
    }

    @Test
    void theOwnTableDownIsTheStoresOutageNotARefusal() {
        markers.setUnavailable(true);

        assertThrows(LeaseStoreUnavailableException.class, guard()::beforeAcquisition);
    }

    @Test
    void aGuardedPoolAcquiresOnlyAfterTheGuardLetsItAndARetriedGrantIsAnsweredWithoutAsking() {
        PooledLeaseSource pool = new PooledLeaseSource(table, BLOCK.slots(), LeaseTerms.DEFAULT, clock, "test").guardedBy(guard());
        registry.claim(BLOCK, Claimant.of("us-east-1", "snowid"), T);

        assertThrows(BlockNotClaimedException.class, () -> pool.acquire("agent", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb"));
        assertTrue(table.heldSlots().isEmpty(), "nothing leased");

        InMemoryClaimRegistry free = new InMemoryClaimRegistry();
        InMemoryClaimMarkers ours = new InMemoryClaimMarkers();
        PooledLeaseSource guarded = new PooledLeaseSource(table, BLOCK.slots(), LeaseTerms.DEFAULT, clock, "test")
                .guardedBy(new RegionGuard(BLOCK, EU, ours, new BlockHandover(free, table, ours, clock)));
        Lease lease = guarded.acquire("agent", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb");
        assertTrue(BLOCK.contains(lease.slot()));
        ours.setUnavailable(true);
        assertEquals(lease.slot(), guarded.acquire("agent", "aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb").slot(),
                "an acquisition answered again by its request id was guarded when it was granted");
    }

    @Test
    void aPoolSpanningTwoBlocksCannotBeClaimedAndAPoolInsideOneClaimsIt() {
        assertEquals(Block.of(1), Block.containing(dev.snowid.lease.SlotPool.parse("5", "0-31")));
        IllegalArgumentException spans = assertThrows(IllegalArgumentException.class,
                () -> Block.containing(dev.snowid.lease.SlotPool.parse("2-5", "0-31")));
        assertTrue(spans.getMessage().contains("block 0") && spans.getMessage().contains("block 1"), spans.getMessage());
        assertEquals(Slot.of(24, 0), Block.parse("24-27").slots().slots().get(0));
        assertThrows(IllegalArgumentException.class, () -> Block.parse("2-5"));
        assertEquals("block 7 (datacenters 28-31)", Block.ofDatacenter(31).toString());
    }
}
