package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.health.SnowidHealth;
import dev.snowid.testing.leaseapi.LeaseApi;
import org.junit.jupiter.api.Test;

/** The health of a closed client: DOWN for good (a lost lease is OUT_OF_SERVICE: {@link LeaseLossTest}). */
class HealthStatesTest {

    @Test
    void aClosedClientIsDownAndSaysWhy() {
        SnowidClient ids = SnowidClient.builder().leaseUrl(LeaseApi.shared().url()).secret(LeaseApi.SECRET).build();
        String owner = ids.currentLease().orElseThrow().owner();
        SnowidHealth up = SnowidHealth.of(ids);
        assertEquals(SnowidHealth.UP, up.status());
        assertFalse(up.details().containsValue(owner), "never the owner token");
        ids.close();
        SnowidHealth down = SnowidHealth.of(ids);
        assertEquals(SnowidHealth.DOWN, down.status());
        assertTrue(((String) down.details().get("reason")).startsWith("the client is closed"), () -> down.details().toString());
    }
}
