package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.FaultyProxy;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent whose first {@code POST /leases} reaches the real lease API, which grants a slot, while
 * the answer is lost on the way back (a proxy closes the connection unanswered): in {@code premain}
 * and in {@code agentmain} (attached with jcmd), start-up asks again with the same request id, is
 * answered with the same lease, and the JVM holds exactly that slot and issues from it.
 */
@ExtendWith(DynamoDbEngine.class)
class AgentLostAnswerIT {

    private static final int DATACENTER = 14;
    private static final Pattern READY = Pattern.compile("^READY$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void premainAsksAgainAndHoldsExactlyOneSlot(TestTable table) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        try (LeaseApi api = LeasedAgents.api(table, DATACENTER);
             FaultyProxy proxy = FaultyProxy.inFrontOf(api.baseUri()).loseNextAnswers(1, "POST /leases ")) {
            Path ids = dir.resolve("premain");
            Process app = LeasedAgents.leased(jdk, proxy.endpoint().toString())
                    .start(ids, "com.acme.legacy.WaitingApp", ids.toString(), dir.resolve("go").toString());
            ChildJvm.awaitOutput(ids, app, READY);

            assertOneSlotAndIdsFromIt(api, app, ids, jdk);
        }
    }

    @Test
    void agentmainAsksAgainAndHoldsExactlyOneSlot(TestTable table) throws Exception {
        Jdk jdk = Jdk.all().get(0);
        try (LeaseApi api = LeasedAgents.api(table, DATACENTER);
             FaultyProxy proxy = FaultyProxy.inFrontOf(api.baseUri()).loseNextAnswers(1, "POST /leases ")) {
            Path config = dir.resolve("snowid.properties");
            Files.write(config, Arrays.asList("snowid.lease.url=" + proxy.endpoint(), "snowid.lease.secret=" + LeaseApi.SECRET,
                    "snowid.targets=" + LeasedAgents.TARGET), StandardCharsets.UTF_8);
            Path ids = dir.resolve("agentmain");
            Process app = ChildJvm.on(jdk).withoutAgent()
                    .start(ids, "com.acme.legacy.WaitingApp", ids.toString(), dir.resolve("go").toString());
            ChildJvm.awaitOutput(ids, app, READY);
            ChildJvm.Result attach = AgentAttachIT.jcmd(jdk, app, "JVMTI.agent_load", ChildJvm.AGENT_JAR, config.toString());
            assertTrue(attach.stdout.contains("return code: 0"), attach::toString);

            assertOneSlotAndIdsFromIt(api, app, ids, jdk);
        }
    }

    /** While it waits: one slot held by the JVM; then its IDs all decode to that slot, and the slot is released at exit. */
    private void assertOneSlotAndIdsFromIt(LeaseApi api, Process app, Path ids, Jdk jdk) throws Exception {
        String holder = "snowid-agent " + app.pid() + "@";
        List<Slot> held = api.heldBy(holder);
        assertEquals(1, held.size(), () -> "exactly one slot held after the lost answer: " + held + "\n" + ChildJvm.output(ids));
        Files.createFile(dir.resolve("go"));
        ChildJvm.Result result = ChildJvm.on(jdk).waitFor(ids, "WaitingApp", app);
        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("did not settle the acquisition; asking again with the same request id"), result::toString);
        for (long id : IdsFile.read(ids)) {
            assertEquals(held.get(0), SnowflakeCodec.TWITTER.decode(id).slot(), "an ID from the slot held");
        }
        assertEquals(List.of(), api.heldBy(holder), "released at exit: nothing stranded");
    }
}
