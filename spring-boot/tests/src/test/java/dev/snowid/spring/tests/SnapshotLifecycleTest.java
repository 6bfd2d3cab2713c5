package dev.snowid.spring.tests;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.client.SnowidClient;
import dev.snowid.lease.Lease;
import dev.snowid.spring.autoconfigure.health.SnowidHealth;
import dev.snowid.testing.crac.Context;
import dev.snowid.testing.crac.Core;
import dev.snowid.testing.crac.Resource;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A CRaC checkpoint and restore of a running app, as AWS SnapStart takes them: Spring stops every
 * lifecycle bean before the checkpoint and starts them after the restore (its own org.crac
 * resource, run here through the test CRaC implementation {@code dev.snowid.testing.crac}). The
 * starter's lifecycle releases the lease when stopped and leases anew when started: a new owner
 * token after the restore, nothing issued in between, and the client's own hooks never registered.
 */
class SnapshotLifecycleTest {

    private static final String HOLDER = "snapshot-app";

    @Test
    void afterACheckpointAndRestoreTheAppIssuesFromANewLease() throws Exception {
        try (LeaseApi api = LeaseApi.start(4)) {
            List<String> during = new ArrayList<>();
            SnowidClient[] client = new SnowidClient[1];
            // Registered before the app: its checkpoint hook runs after Spring's (which stops the app), its restore hook before.
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
            int clientHooks = clientHooks();
            try (ConfigurableApplicationContext app = Apps.run(api, "snowid.lease.holder=" + HOLDER)) {
                client[0] = app.getBean(SnowidClient.class);
                // org.crac holds resources weakly: hooks of clients built by earlier tests may be collected
                // meanwhile, so the count may fall, and must never rise.
                assertTrue(clientHooks() <= clientHooks, "the starter's client registers no CRaC hooks of its own");
                Lease snapshot = client[0].currentLease().orElseThrow();
                long before = client[0].nextId();

                org.crac.Core.checkpointRestore();

                assertEquals(List.of("checkpoint: refused, held []", "restore: refused"), during,
                        "released when Spring stopped the app, and nothing issued until the new lease");
                await("a new lease after the restore").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                        .until(() -> client[0].currentLease().isPresent());
                Lease restored = client[0].currentLease().orElseThrow();
                assertNotEquals(snapshot.owner(), restored.owner(), "a new owner token");
                assertEquals(List.of(restored.slot()), api.heldBy(HOLDER), "one slot held");
                long after = client[0].nextId();
                assertTrue(after > before);
                assertEquals(restored.slot(), client[0].codec().decode(after).slot(), "issued from the new lease");
                assertEquals(SnowidHealth.UP, SnowidHealth.of(client[0]).status());
            }
            assertEquals(List.of(), api.heldBy(HOLDER), "released on close");
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

    private static int clientHooks() {
        return (int) Core.registered().stream().filter(name -> name.contains("snowid client lease hooks")).count();
    }
}
