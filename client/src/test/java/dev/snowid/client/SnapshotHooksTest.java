package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.WallClock;
import dev.snowid.lease.Lease;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.PooledLeaseSource;
import dev.snowid.lease.SlotPool;
import dev.snowid.testing.InMemoryLeaseStore;
import dev.snowid.testing.crac.Context;
import dev.snowid.testing.crac.Core;
import dev.snowid.testing.crac.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The client's CRaC hooks, run through org.crac as a checkpoint and restore run them (the test
 * implementation {@code dev.snowid.testing.crac}, selected for this module's tests by
 * {@code org.crac.Core.Compat}): the lease released before, nothing issued in between, a new lease
 * (a new owner token) after. On the pool's logic (an in-memory table); the real lease API's
 * version is testing/lease-api's {@code ClientSnapshotTest}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class SnapshotHooksTest {

    private final InMemoryLeaseStore table = new InMemoryLeaseStore();

    private SnowidClient client(boolean hooks) {
        PooledLeaseSource pool = new PooledLeaseSource(table, SlotPool.parse("3", "0-7"), LeaseTerms.DEFAULT, WallClock.SYSTEM, "test");
        return SnowidClient.builder().leaseSource(pool).snapshotHooks(hooks).log(ClientLogs.SILENT).build();
    }

    @Test
    void aCheckpointReleasesTheLeaseAndTheRestoreLeasesAnewWithANewOwner() throws Exception {
        List<String> seen = new ArrayList<>();
        SnowidClient[] holder = new SnowidClient[1];
        Lease[] held = new Lease[1];
        InMemoryLeaseStore.Row[] atSnapshot = new InMemoryLeaseStore.Row[1];
        // Registered before the client: its beforeCheckpoint runs after the client's, its afterRestore before the client's.
        Core.getGlobalContext().register(new Resource() {
            @Override
            public void beforeCheckpoint(Context<? extends Resource> context) {
                seen.add("snapshot: " + refusal(holder[0]) + ", lease " + holder[0].currentLease().isPresent());
                // Read now: after the restore a new lease may take the same slot and overwrite the row.
                atSnapshot[0] = table.row(held[0].slot()).orElseThrow(AssertionError::new);
            }

            @Override
            public void afterRestore(Context<? extends Resource> context) {
                seen.add("restored: " + refusal(holder[0]) + ", lease " + holder[0].currentLease().isPresent());
            }
        });
        SnowidClient client = client(true);
        holder[0] = client;
        try {
            Lease before = client.currentLease().orElseThrow(AssertionError::new);
            held[0] = before;
            long issuedBefore = client.nextId();

            org.crac.Core.checkpointRestore(); // what an application's (or SnapStart's) checkpoint and restore run

            assertEquals(List.of("snapshot: refused, lease false", "restored: refused, lease false"), seen,
                    "nothing issued between the checkpoint and the restore, nor after it before a new lease");
            InMemoryLeaseStore.Row old = atSnapshot[0];
            assertEquals(before.owner(), old.releasedBy, "the snapshot's lease was released: " + old);
            Lease after = awaitLease(client);
            assertNotEquals(before.owner(), after.owner(), "a new owner token after the restore");
            long id = client.nextId();
            assertTrue(id > issuedBefore);
            assertEquals(after.slot(), SnowflakeCodec.TWITTER.decode(id).slot(), "issued from the new lease");
            assertFalse(client.isSuspended());
        } finally {
            client.close();
        }
    }

    @Test
    void aClientTheStarterBuildsRegistersNoHooksOfItsOwn() {
        int before = hooksRegistered();
        SnowidClient client = client(false);
        try {
            assertEquals(before, hooksRegistered(), "snapshotHooks(false): nothing registered with org.crac");
        } finally {
            client.close();
        }
        SnowidClient hooked = client(true);
        try {
            assertEquals(before + 1, hooksRegistered(), "by default, its own hooks");
        } finally {
            hooked.close();
        }
    }

    @Test
    void suspendAndResumeByHandLeaseAnew() throws Exception {
        SnowidClient client = client(false);
        try {
            Lease first = client.currentLease().orElseThrow(AssertionError::new);
            client.suspend();
            client.suspend(); // idempotent
            assertTrue(client.isSuspended());
            IdUnavailableException refused = assertThrows(IdUnavailableException.class, client::nextId);
            assertTrue(refused.getMessage().contains("suspended"), refused.getMessage());
            client.resume();
            assertNotEquals(first.owner(), awaitLease(client).owner());
            client.resume(); // not suspended: nothing happens
            assertEquals(1, table.rows().values().stream().filter(row -> row.owner != null).count(), "one slot held: " + table.rows());
        } finally {
            client.close();
        }
        assertFalse(client.isSuspended(), "closed, not suspended");
        client.resume();
        assertThrows(IdUnavailableException.class, client::nextId, "a closed client never leases again");
    }

    private static String refusal(SnowidClient client) {
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

    private static int hooksRegistered() {
        int count = 0;
        for (String resource : Core.registered()) {
            count += resource.contains("snowid client lease hooks") ? 1 : 0;
        }
        return count;
    }
}
