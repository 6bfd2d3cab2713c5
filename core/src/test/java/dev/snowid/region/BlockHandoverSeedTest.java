package dev.snowid.region;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lease.LeaseStore;
import dev.snowid.testing.InMemoryClaimMarkers;
import dev.snowid.testing.InMemoryClaimRegistry;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.ManualClock;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;

/**
 * A seed that races another seeder, as the simulator found it (a 500 from the guard): seeding
 * takes each free slot for 1 ms and releases it at the floor; when that lease has run out and
 * another seeder took the slot first, the release finds it lost. The slot is seeded either way.
 */
class BlockHandoverSeedTest {

    private static final long T = 1_700_000_000_000L;
    private static final Block BLOCK = Block.of(6);

    private final ManualClock clock = new ManualClock(T);
    private final InMemoryLeaseStore table = new InMemoryLeaseStore();

    @Test
    void aSeedingLeaseTakenByAnotherSeederBeforeItsReleaseStillLeavesEverySlotAtOrAfterTheFloor() {
        long floor = T + 60_000;
        Slot raced = BLOCK.slots().slots().get(3);
        InMemoryLeaseStore otherSeeder = table.newClient();
        LeaseStore racing = (LeaseStore) Proxy.newProxyInstance(LeaseStore.class.getClassLoader(), new Class<?>[] {LeaseStore.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("release") && args[0].equals(raced)) {
                        clock.set(floor + 2); // past the seeding lease's end: another seeder takes the slot first
                        assertTrue(otherSeeder.tryAcquire(raced, "other", "seeding", clock.millis(), clock.millis() + 1).isPresent());
                    }
                    try {
                        return method.invoke(table, args);
                    } catch (InvocationTargetException thrown) {
                        throw thrown.getCause();
                    }
                });
        BlockHandover handover = new BlockHandover(new InMemoryClaimRegistry(), racing, new InMemoryClaimMarkers(), clock);

        handover.seed(BLOCK, floor); // before the fix: LeaseLostException, a 500 from the guard

        for (Slot slot : BLOCK.slots().slots()) {
            InMemoryLeaseStore.Row row = table.row(slot).orElseThrow(AssertionError::new);
            long nextFloor = row.owner == null ? row.expiresAt : row.floor;
            assertTrue(nextFloor >= floor, "slot " + slot + " starts at " + nextFloor + ", before the floor " + floor + ": " + row);
        }
    }
}
