package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.Slot;
import dev.snowid.client.SnowidClient;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An app whose first {@code POST /leases} reaches the real lease API, which grants a slot, while
 * the answer is lost on the way back (a proxy closes the connection unanswered): start-up asks
 * again with the same request id, is answered with the same lease, and the app holds exactly that
 * one slot and issues from it.
 */
class LostAnswerStartupTest {

    private static final String HOLDER = "lost-answer-app";

    @Test
    void theAppHoldsExactlyOneSlotAndIssuesFromIt() {
        try (LeaseApi api = LeaseApi.start(4);
             FaultyProxy proxy = FaultyProxy.inFrontOf(api.baseUri()).loseNextAnswers(1, "POST /leases ")) {
            try (ConfigurableApplicationContext app = Apps.builder(proxy.endpoint().toString(), LeaseApi.SECRET,
                    "snowid.lease.holder=" + HOLDER).run()) {
                SnowidClient ids = app.getBean(SnowidClient.class);
                Slot slot = ids.currentLease().orElseThrow().slot();
                assertEquals(List.of(slot), api.heldBy(HOLDER), "exactly one slot held, the app's");
                for (int i = 0; i < 1_000; i++) {
                    assertEquals(slot, ids.codec().decode(ids.nextId()).slot());
                }
            }
            assertEquals(List.of(), api.heldBy(HOLDER), "released on close: nothing stranded");
        }
    }
}
