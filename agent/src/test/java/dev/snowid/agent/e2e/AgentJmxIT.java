package dev.snowid.agent.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.tools.attach.VirtualMachine;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's MBean {@code dev.snowid:type=Agent}, read over JMX from a running child JVM as an
 * operator's JConsole or JMX exporter would: attached through the JDK's attach API, which starts
 * the child's local management agent (no port to open).
 */
@ExtendWith(DynamoDbEngine.class)
class AgentJmxIT {

    private static final int DATACENTER = 11;

    @TempDir
    Path dir;

    @OnEveryJdk
    void aLeasedJvmShowsItsSlotLeaseIdsAndRenewals(Jdk jdk, TestTable table) throws Exception {
        try (LeaseApi api = LeasedAgents.api(table, DATACENTER)) {
            Process app = LeasedAgents.leased(jdk, api.baseUri().toString())
                    .start(dir.resolve("leased"), "com.acme.legacy.LeasedApp", dir.resolve("leased").toString(), "0");
            try (JMXConnector jmx = connect(app)) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                ObjectName agent = new ObjectName("dev.snowid:type=Agent");
                assertEquals("lease", awaitAttribute(server, agent, "Mode"));
                assertTrue(((String) server.getAttribute(agent, "Slot")).startsWith(DATACENTER + ":"), "a slot of the pool's datacenter 11");
                long left = (Long) server.getAttribute(agent, "LeaseMillisLeft");
                assertTrue(left > 0 && left <= LeaseApi.LEASE_MILLIS, "lease left: " + left);
                long issued = (Long) server.getAttribute(agent, "IdsIssued");
                // Renewal starts with half the lease left: within one lease, one is confirmed.
                await("a renewal counted").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                        .failFast("the app exited", () -> !app.isAlive())
                        .untilAsserted(() -> assertTrue((Long) server.getAttribute(agent, "Renewals") > 0,
                                () -> "no renewal counted:\n" + ChildJvm.output(dir.resolve("leased"))));
                assertTrue((Long) server.getAttribute(agent, "IdsIssued") > issued, "IDs keep coming and are counted");
                assertEquals(0L, server.getAttribute(agent, "LeasesLost"));
                assertTrue(((TabularData) server.getAttribute(agent, "Refusals")).isEmpty(), "nothing refused");
            } finally {
                app.destroy();
                app.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @OnEveryJdk
    void aFixedNodeShowsItsNodeAndNoLease(Jdk jdk) throws Exception {
        Process app = ChildJvm.on(jdk)
                .property("snowid.node", "7:13")
                .property("snowid.targets", LeasedAgents.TARGET)
                .start(dir.resolve("node"), "com.acme.legacy.LeasedApp", dir.resolve("node").toString(), "0");
        try (JMXConnector jmx = connect(app)) {
            MBeanServerConnection server = jmx.getMBeanServerConnection();
            ObjectName agent = new ObjectName("dev.snowid:type=Agent");
            assertEquals("node", awaitAttribute(server, agent, "Mode"));
            assertEquals("7:13", server.getAttribute(agent, "Slot"));
            assertEquals(-1L, server.getAttribute(agent, "LeaseMillisLeft"));
            long ids = Files.size(dir.resolve("node")) / 8;
            assertTrue((Long) server.getAttribute(agent, "IdsIssued") >= ids, "at least the IDs the app wrote so far: " + ids);
        } finally {
            app.destroy();
            app.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Attaches to the child once it runs and opens a JMX connection to its local management agent. */
    private JMXConnector connect(Process app) {
        return await("a JMX connection to the child").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions() // not attachable yet: the last failure is the timeout's cause
                .failFast("the child exited", () -> !app.isAlive())
                .until(() -> {
                    VirtualMachine vm = VirtualMachine.attach(Long.toString(app.pid()));
                    try {
                        return JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
                    } finally {
                        vm.detach();
                    }
                }, Objects::nonNull);
    }

    /** The MBean is registered on a daemon thread after start-up: wait for it (bounded). */
    private static Object awaitAttribute(MBeanServerConnection server, ObjectName name, String attribute) throws Exception {
        await(name + " registered").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50)).until(() -> server.isRegistered(name));
        return server.getAttribute(name, attribute);
    }

}
