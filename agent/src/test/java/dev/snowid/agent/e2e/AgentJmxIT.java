package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.tools.attach.VirtualMachine;
import dev.snowid.lambda.engine.DynamoDbEngine;
import dev.snowid.lambda.engine.TestTable;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.local.LocalRunner;
import dev.snowid.local.LocalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent's MBean {@code dev.snowid:type=Agent}, read over JMX from a running child JVM as an
 * operator's JConsole or JMX exporter would: attached through the JDK's attach API, which starts
 * the child's local management agent (no port to open).
 */
@ExtendWith(DynamoDbEngine.class)
class AgentJmxIT {

    private static final String SECRET = "agent-jmx-it-secret";
    private static final String TARGET = "com.acme.legacy.LegacyIds#nextLong";
    private static final long LEASE_MILLIS = 5_000;

    @TempDir
    Path dir;

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aLeasedJvmShowsItsSlotLeaseIdsAndRenewals(Jdk jdk, TestTable table) throws Exception {
        try (LocalRunner api = LocalRunner.start(functionEnvironment(table))) {
            Process app = ChildJvm.on(jdk)
                    .property("snowid.lease.url", api.baseUri().toString())
                    .property("snowid.targets", TARGET)
                    .env("SNOWID_LEASE_SECRET", SECRET)
                    .start(dir.resolve("leased"), "com.acme.legacy.LeasedApp", dir.resolve("leased").toString(), "0");
            try (JMXConnector jmx = connect(app)) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                ObjectName agent = new ObjectName("dev.snowid:type=Agent");
                assertEquals("lease", awaitAttribute(server, agent, "Mode"));
                assertTrue(((String) server.getAttribute(agent, "Slot")).startsWith("11:"), "a slot of the pool's datacenter 11");
                long left = (Long) server.getAttribute(agent, "LeaseMillisLeft");
                assertTrue(left > 0 && left <= LEASE_MILLIS, "lease left: " + left);
                long issued = (Long) server.getAttribute(agent, "IdsIssued");
                // Renewal starts with half the lease left: within one lease, one is confirmed.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while ((Long) server.getAttribute(agent, "Renewals") == 0) {
                    if (System.nanoTime() > deadline || !app.isAlive()) {
                        fail("no renewal counted; stderr:\n" + ChildJvm.Result.read(dir.resolve("leased"), ".err"));
                    }
                    Thread.sleep(50);
                }
                assertTrue((Long) server.getAttribute(agent, "IdsIssued") > issued, "IDs keep coming and are counted");
                assertEquals(0L, server.getAttribute(agent, "LeasesLost"));
                assertTrue(((TabularData) server.getAttribute(agent, "Refusals")).isEmpty(), "nothing refused");
            } finally {
                app.destroy();
                app.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void aFixedNodeShowsItsNodeAndNoLease(Jdk jdk) throws Exception {
        Process app = ChildJvm.on(jdk)
                .property("snowid.node", "7:13")
                .property("snowid.targets", TARGET)
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
    private JMXConnector connect(Process app) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                VirtualMachine vm = VirtualMachine.attach(Long.toString(app.pid()));
                try {
                    return JMXConnectorFactory.connect(new JMXServiceURL(vm.startLocalManagementAgent()));
                } finally {
                    vm.detach();
                }
            } catch (Exception notYet) {
                if (!app.isAlive() || System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(100);
            }
        }
    }

    /** The MBean is registered on a daemon thread after start-up: wait for it (bounded). */
    private static Object awaitAttribute(MBeanServerConnection server, ObjectName name, String attribute) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!server.isRegistered(name)) {
            if (System.nanoTime() > deadline) {
                fail(name + " was never registered");
            }
            Thread.sleep(50);
        }
        return server.getAttribute(name, attribute);
    }

    private static Map<String, String> functionEnvironment(TestTable table) {
        Map<String, String> env = new HashMap<>();
        env.put(LocalSettings.LOCAL_PORT, "0");
        env.put(FunctionSettings.TABLE, table.name());
        env.put(FunctionSettings.DYNAMODB_ENDPOINT, table.endpoint().toString());
        env.put(LocalSettings.LOCAL_LEASE_SECRET, SECRET);
        env.put("SNOWID_LEASE_MILLIS", Long.toString(LEASE_MILLIS));
        env.put("SNOWID_MAX_CLOCK_SKEW_MILLIS", "250"); // the most a 5 s lease allows: one machine, one clock
        env.put("SNOWID_DATACENTERS", "11");
        env.put("SNOWID_MACHINES", "0-1");
        return env;
    }
}
