package dev.snowid.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.lease.LeaseStore;
import dev.snowid.lease.LeaseStoreUnavailableException;
import org.junit.jupiter.api.Test;

class InMemoryLeaseStoreTest extends LeaseStoreContract {

    @Override
    protected LeaseStore newStore() {
        return new InMemoryLeaseStore();
    }

    @Test
    void skewIsUnknownUntilTheStoreAnswersThenAsSet() {
        InMemoryLeaseStore store = new InMemoryLeaseStore().setClockSkewMillis(-2_500);
        assertFalse(store.clockSkewMillis().isPresent());
        store.ownedExpiries();
        assertEquals(-2_500, store.clockSkewMillis().getAsLong());
    }

    @Test
    void clientsShareTheTableButNotTheirSkewOrFaults() {
        InMemoryLeaseStore first = new InMemoryLeaseStore();
        InMemoryLeaseStore second = first.newClient().setClockSkewMillis(700).setFault(InMemoryLeaseStore.Fault.UNAVAILABLE);
        first.tryAcquire(Slot.of(0, 0), "a", "first", T, T + 5_000).get();
        assertThrows(LeaseStoreUnavailableException.class, second::ownedExpiries);
        second.setFault(InMemoryLeaseStore.Fault.NONE);
        assertTrue(second.ownedExpiries().containsKey(Slot.of(0, 0)));
        assertEquals(700, second.clockSkewMillis().getAsLong());
        assertEquals(0, first.clockSkewMillis().getAsLong());
    }

    @Test
    void aLostAnswerStillChangesTheTable() {
        InMemoryLeaseStore store = new InMemoryLeaseStore().setFault(InMemoryLeaseStore.Fault.ANSWER_LOST);
        assertThrows(LeaseStoreUnavailableException.class, () -> store.tryAcquire(Slot.of(0, 0), "a", "x", T, T + 5_000));
        assertEquals("a", store.row(Slot.of(0, 0)).get().owner);
        assertFalse(store.clockSkewMillis().isPresent(), "no answer arrived");
    }
}
