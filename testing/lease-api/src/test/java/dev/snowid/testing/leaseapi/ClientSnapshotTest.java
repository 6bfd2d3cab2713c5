package dev.snowid.testing.leaseapi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.client.SnowidClient;
import dev.snowid.lease.Lease;
import dev.snowid.testing.crac.Context;
import dev.snowid.testing.crac.Core;
import dev.snowid.testing.crac.Resource;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code SnowidClient} through a CRaC checkpoint and restore, as AWS SnapStart runs them:
 * {@code org.crac.Core.checkpointRestore()} on the test CRaC implementation ({@code dev.snowid.testing.crac},
 * selected by {@code org.crac.Core.Compat}) runs the client's registered hooks. Against the real
 * lease API: the snapshot's lease is released before the checkpoint, nothing is issued until a
 * new lease, and after the restore the client holds a new lease (a new owner token).
 */
@ExtendWith(DynamoDbEngine.class)
class ClientSnapshotTest {

    private static final String HOLDER = "snapshot-client";

    @Test
    void afterACheckpointAndRestoreTheClientIssuesFromANewLeaseAndTheOldOneIsReleased(TestTable table) throws Exception {
        try (LeaseApi api = LeaseApi.start(table, LeaseApi.DATACENTER, 4)) {
            List<String> during = new ArrayList<>();
            SnowidClient[] client = new SnowidClient[1];
            // Registered before the client: its checkpoint hook runs after the client's, its restore hook before it.
            Core.getGlobalContext().register(new Resource() {
                @Override
                public void beforeCheckpoint(Context<? extends Resource> context) {
                    during.add("checkpoint: " + issued(client[0]) + ", held " + api.heldBy(HOLDER));
                }

                @Override
                public void afterRestore(Context<? extends Resource> context) {
                    during.add("restore: " + issued(client[0]));
                }
            });
            client[0] = SnowidClient.builder().leaseUrl(api.url()).secret(LeaseApi.SECRET).holder(HOLDER).build();
            try {
                Lease snapshot = client[0].currentLease().orElseThrow(AssertionError::new);
                long before = client[0].nextId();

                org.crac.Core.checkpointRestore();

                assertEquals(List.of("checkpoint: refused, held []", "restore: refused"), during,
                        "released before the checkpoint, and nothing issued until the new lease");
                Lease restored = awaitLease(client[0]);
                assertNotEquals(snapshot.owner(), restored.owner(), "a new owner token");
                assertEquals(List.of(restored.slot()), api.heldBy(HOLDER), "one slot held");
                long after = client[0].nextId();
                assertTrue(after > before);
                assertEquals(restored.slot(), client[0].codec().decode(after).slot(), "issued from the new lease");
            } finally {
                client[0].close();
            }
        }
    }

    private static String issued(SnowidClient client) {
        try {
            client.nextId();
            return "issued";
        } catch (IdUnavailableException e) {
            return "refused";
        }
    }

    /** The new lease the renewer takes after a resume, within a deadline. */
    private static Lease awaitLease(SnowidClient client) {
        return Awaitility.await("a lease within 20 s of the restore").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(10))
                .until(client::currentLease, Optional::isPresent).get();
    }
}
