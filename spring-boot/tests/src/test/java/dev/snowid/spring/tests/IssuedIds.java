package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeId;
import dev.snowid.client.SnowidClient;
import dev.snowid.lease.Lease;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/** What every stored ID must satisfy: one per row, no two alike, all from the client's slot and within its lease windows. */
public final class IssuedIds {

    private IssuedIds() {
    }

    /**
     * @param first the client's lease when the inserts began
     * @param ids the client, asked for its lease after the inserts (renewals move its expiry on)
     */
    public static void assertIssuedUnder(Lease first, SnowidClient ids, Collection<Long> stored, int expectedCount) {
        assertEquals(expectedCount, stored.size(), "one stored ID per insert");
        Set<Long> distinct = new HashSet<>(stored);
        assertEquals(stored.size(), distinct.size(), () -> (stored.size() - distinct.size()) + " duplicate IDs");
        Lease last = ids.currentLease().orElseThrow(() -> new AssertionError("the client lost its lease"));
        assertEquals(first.slot(), last.slot(), "the client kept its slot");
        assertEquals(LeaseApi.DATACENTER, first.slot().datacenter(), "a slot from the API's pool");
        long expiresAt = last.window().expiresAt();
        for (long id : stored) {
            SnowflakeId decoded = ids.codec().decode(id);
            assertEquals(first.slot(), decoded.slot(), () -> "ID " + id + " is not from the leased slot " + first.slot());
            assertTrue(decoded.unixMillis() >= first.window().floor() && decoded.unixMillis() < expiresAt,
                    () -> "ID " + id + " at " + decoded.unixMillis() + " lies outside the leased windows [" + first.window().floor()
                            + ", " + expiresAt + ")");
        }
    }
}
