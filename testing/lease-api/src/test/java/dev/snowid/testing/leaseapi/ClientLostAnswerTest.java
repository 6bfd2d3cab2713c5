package dev.snowid.testing.leaseapi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.Slot;
import dev.snowid.client.SnowidClient;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.TestTable;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code SnowidClient.builder().build()} whose first {@code POST /leases} reaches the real lease
 * API, which grants a slot, while its answer is lost on the way back (a proxy closes the
 * connection unanswered): the client asks again with the same request id, is answered with the
 * same lease, and holds exactly that one slot.
 */
@ExtendWith(DynamoDbEngine.class)
class ClientLostAnswerTest {

    private static final String HOLDER = "lost-answer-client";

    @Test
    void aClientWhoseFirstAnswerIsLostHoldsExactlyOneSlotAndIssuesFromIt(TestTable table) {
        try (LeaseApi api = LeaseApi.start(table, LeaseApi.DATACENTER, 4);
             FaultyProxy proxy = FaultyProxy.inFrontOf(api.baseUri()).loseNextAnswers(1, "POST /leases ")) {
            SnowidClient client = SnowidClient.builder().leaseUrl(proxy.endpoint().toString()).secret(LeaseApi.SECRET)
                    .holder(HOLDER).build();
            try {
                Slot slot = client.currentLease().orElseThrow(AssertionError::new).slot();
                assertEquals(List.of(slot), api.heldBy(HOLDER), "exactly one slot held, the client's");
                for (int i = 0; i < 1_000; i++) {
                    assertEquals(slot, client.codec().decode(client.nextId()).slot());
                }
            } finally {
                client.close();
            }
            assertEquals(List.of(), api.heldBy(HOLDER), "released on close: nothing left stranded");
        }
    }
}
