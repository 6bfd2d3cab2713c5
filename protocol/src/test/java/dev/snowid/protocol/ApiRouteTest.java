package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.Slot;
import org.junit.jupiter.api.Test;

/** The route table's paths as the clients call them, and the lease routes' rows in it. */
class ApiRouteTest {

    @Test
    void aPathFillsItsOneParameterSegmentAndAPathWithoutOneStaysAsItIs() {
        assertEquals("/ids/1724551110457221119", ApiRoute.DECODE.path(1724551110457221119L));
        assertEquals("/ids", ApiRoute.GET_IDS.path(null));
        assertEquals("GET /ids/{id}", ApiRoute.DECODE.toString());
    }

    @Test
    void theLeaseRoutesCallTheirRowsOfTheTable() {
        Slot slot = Slot.of(1, 5);
        assertEquals("PUT /leases/" + slot.index(), LeaseRoute.RENEW.method() + " " + LeaseRoute.RENEW.path(slot));
        assertEquals("DELETE /leases/" + slot.index(), LeaseRoute.RELEASE.method() + " " + LeaseRoute.RELEASE.path(slot));
        assertEquals("POST /leases", LeaseRoute.ACQUIRE.method() + " " + LeaseRoute.ACQUIRE.path(null));
        assertEquals("GET /leases", LeaseRoute.SLOT_MAP.method() + " " + LeaseRoute.SLOT_MAP.path(null));
        assertEquals("PUT /leases/{slot}", LeaseRoute.RENEW.toString());
        for (LeaseRoute route : LeaseRoute.values()) {
            assertEquals(route.name(), route.row().name(), "a lease route is the table's row of its name");
        }
    }
}
