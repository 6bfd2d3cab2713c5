package dev.snowid.spring.tests;

import dev.snowid.Slot;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.ArrayList;
import java.util.List;

/** The slots the lease API's slot map shows held by one holder now. */
final class HeldSlots {

    private HeldSlots() {
    }

    static List<Slot> of(LeaseApi api, String holder) {
        long now = System.currentTimeMillis();
        List<Slot> slots = new ArrayList<>();
        api.slotMap().leases().stream().filter(entry -> entry.lease().holder().equals(holder) && entry.lease().heldAt(now))
                .forEach(entry -> slots.add(entry.lease().slot()));
        return slots;
    }
}
