package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.client.HttpLeaseSource;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An attach that fails after the slot was leased: the application's temporary directory does
 * not exist yet, so the bootstrap bridge's jar cannot be written. The failed attach must leave
 * no slot taken (the real local runner's slot map says so) and no half-installed bridge: once
 * the directory exists, attaching again works.
 */
@ExtendWith(DynamoDbEngine.class)
class AgentFailedAttachIT {

    private static final int DATACENTER = 12;
    private static final Pattern READY = Pattern.compile("^READY$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @OnEveryJdk
    void aFailedAttachReleasesItsLeaseAndARetryWorks(Jdk jdk, TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, DATACENTER)) {
            HttpLeaseSource operator = new HttpLeaseSource(api.baseUri().toURL(), () -> LeaseApi.SECRET, "operator");
            Path config = dir.resolve("snowid.properties");
            Files.write(config, Arrays.asList("snowid.lease.url=" + api.baseUri(), "snowid.targets=" + LeasedAgents.TARGET),
                    StandardCharsets.UTF_8);
            Path tmp = dir.resolve("tmp-made-later");
            Path ids = dir.resolve("ids");
            Process app = ChildJvm.on(jdk).withoutAgent().property("java.io.tmpdir", tmp.toString())
                    .env("SNOWID_LEASE_SECRET", LeaseApi.SECRET)
                    .start(ids, "com.acme.legacy.WaitingApp", ids.toString(), dir.resolve("go").toString());
            ChildJvm.awaitOutput(ids, app, READY);

            ChildJvm.Result failed = AgentAttachIT.jcmd(jdk, app, "JVMTI.agent_load", ChildJvm.AGENT_JAR, config.toString());
            assertFalse(failed.stdout.contains("return code: 0"), failed::toString);
            SlotMap afterFailure = operator.slotMap();
            assertEquals(0, afterFailure.leases().size(), () -> "the failed attach left a slot taken: " + afterFailure.leases());

            Files.createDirectories(tmp);
            ChildJvm.Result retried = AgentAttachIT.jcmd(jdk, app, "JVMTI.agent_load", ChildJvm.AGENT_JAR, config.toString());
            assertTrue(retried.stdout.contains("return code: 0"), retried::toString);
            assertEquals(1, operator.slotMap().leases().size(), "the retried attach holds one slot");

            Files.createFile(dir.resolve("go"));
            ChildJvm.Result result = ChildJvm.on(jdk).waitFor(ids, "WaitingApp", app);
            assertEquals(0, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("could not write the bootstrap bridge jar"), result::toString);
            assertTrue(result.stderr.contains("the failed start released its lease on slot"), result::toString);
            assertFalse(result.stderr.contains("already installed"), result::toString);
            assertEquals(1, AgentPresetIT.occurrences(result.stdout, AgentAttachIT.MARKER),
                    () -> "after the retried attach every call is redirected:\n" + result);
            assertEquals(1000, IdsFile.read(ids).length);
            assertEquals(0, operator.slotMap().leases().size(), "released at exit");
        }
    }
}
