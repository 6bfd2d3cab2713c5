package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.Functions.Function;
import dev.snowid.lambda.http.PayloadFormat;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import dev.snowid.testing.InMemoryLeaseStore;
import java.util.Map;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The two roles the template deploys the artifact in: the lease function
 * answers the lease routes only and never takes a slot for itself; the ids function refuses the
 * lease routes.
 */
class FunctionRoleTest {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();

    @Test
    void theLeaseFunctionAnswersOnlyLeaseRoutesAndHoldsNoSlotOfItsOwn() {
        try (Function leases = Functions.inMemory(store, FunctionSettings.ROLE, "leases", FunctionSettings.AGENT_SLOTS, "4")) {
            for (String path : new String[] {"/ids", "/ids/1724551110457221119", "/health", "/", "/nope"}) {
                Invocation refused = leases.call(TestEvents.get(path), PayloadFormat.V2);
                assertEquals(404, refused.status(), path + ": " + refused);
                assertEquals("not_found", refused.text("error"));
                assertTrue(refused.text("message").contains("SNOWID_ROLE=leases"), refused::toString);
            }
            Invocation granted = leases.call(TestEvents.request("POST", "/leases").bearer(Functions.SECRET), PayloadFormat.V2);
            assertEquals(201, granted.status(), granted::toString);
            // The only row is the agent's: the lease function took no slot for itself on any request.
            assertEquals(1, store.rows().values().stream().filter(row -> row.owner != null).count(), "one lease row, the agent's");
        }
    }

    @Test
    void theIdsFunctionRefusesTheLeaseRoutesBeforeTheirCredentials() {
        try (Function ids = Functions.inMemory(store, FunctionSettings.ROLE, "ids", FunctionSettings.AGENT_SLOTS, "4")) {
            for (String[] route : new String[][] {{"POST", "/leases"}, {"GET", "/leases"}, {"PUT", "/leases/3"}, {"DELETE", "/leases/3"}}) {
                Invocation refused = ids.call(TestEvents.request(route[0], route[1]).bearer(Functions.SECRET), PayloadFormat.V2);
                assertEquals(404, refused.status(), route[1] + ": " + refused);
                assertTrue(refused.text("message").contains("SNOWID_ROLE=ids"), refused::toString);
            }
            assertEquals(200, ids.call(TestEvents.get("/ids"), PayloadFormat.V2).status());
            assertEquals(200, ids.call(TestEvents.get("/health"), PayloadFormat.V2).status());
        }
    }

    @Test
    void anUnknownRoleNamesTheSetting() {
        InvalidSettingException e = Assertions.assertThrows(InvalidSettingException.class,
                () -> FunctionSettings.from(Map.of(FunctionSettings.ROLE, "both")));
        assertTrue(e.getMessage().contains(FunctionSettings.ROLE) && e.getMessage().contains("'leases'"), e.getMessage());
    }
}
