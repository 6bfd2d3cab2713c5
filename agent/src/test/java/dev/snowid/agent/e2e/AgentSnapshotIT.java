package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent JVM with {@code org.crac} on its class path, as in a SnapStart function, through a
 * checkpoint and restore (the test CRaC implementation runs the hooks the agent's client
 * registered): the lease is released before the checkpoint, a new one taken after the restore,
 * and every ID after it comes from the new lease.
 */
@ExtendWith(DynamoDbEngine.class)
class AgentSnapshotIT {

    private static final Pattern AUDIT = Pattern.compile("\"event\":\"(granted|released|lost)\",\"slot\":(\\d+),.*?\"fence\":(\\d+)");

    @TempDir
    Path dir;

    @Test
    void theLeaseIsReleasedBeforeTheCheckpointAndANewOneTakenAfterTheRestore(TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, 15)) {
            Path ids = dir.resolve("snapshot");
            ChildJvm.Result result = LeasedAgents.leased(Jdk.all().get(0), api.url())
                    .classPath(ChildJvm.FIXTURE_CLASSES, ChildJvm.FIXTURE_CRAC)
                    .property("org.crac.Core.Compat", "dev.snowid.testing.crac")
                    .property("snowid.onUnavailable", "wait:10000")
                    .property("snowid.lease.auditAtInfo", "true") // the events below are read from the audit lines
                    .run(ids, "com.acme.legacy.SnapshotApp", ids.toString());

            assertEquals(0, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("CRaC hooks registered"), result::toString);
            List<String> events = new ArrayList<>();
            for (String line : result.stderr.split("\\R")) {
                Matcher event = AUDIT.matcher(line);
                if (line.contains("[snowid]") && event.find()) {
                    events.add(event.group(1) + " " + event.group(2) + "/" + event.group(3));
                }
            }
            assertEquals(4, events.size(), () -> "granted, released (checkpoint), granted (restore), released (exit): " + events);
            assertEquals(List.of("granted", "released", "granted", "released"),
                    events.stream().map(event -> event.split(" ")[0]).toList(), events::toString);
            assertEquals(events.get(0).split(" ")[1], events.get(1).split(" ")[1], "the snapshot's lease released");
            assertNotEquals(events.get(0).split(" ")[1], events.get(2).split(" ")[1], "a new lease after the restore: " + events);
            int slot = Integer.parseInt(events.get(2).split(" ")[1].split("/")[0]);
            for (long id : IdsFile.read(ids)) {
                assertEquals(slot, SnowflakeCodec.TWITTER.decode(id).slot().index(), "issued from the new lease");
            }
        }
    }
}
