package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each kind of bad configuration stops the JVM before the application's main runs: exit status
 * 1 and a {@code [snowid] ERROR:} line naming the property and what is allowed.
 */
class AgentConfigurationIT {

    static final String TARGET = "com.acme.legacy.LegacyIds#nextLong";

    @TempDir
    Path dir;

    static Stream<Arguments> badConfigurations() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // free now, closed when the child tries it
        }
        List<Arguments> cases = new ArrayList<>();
        for (Jdk jdk : Jdk.all()) {
            cases.add(bad(jdk, "unparsable node", props("snowid.node", "7-13", "snowid.targets", TARGET), env(),
                    "snowid.node='7-13' is invalid: '7-13' is not a node: expected <datacenter>:<machine>, each a whole number from 0 to 31"));
            cases.add(bad(jdk, "machine out of range", props("snowid.node", "7:32", "snowid.targets", TARGET), env(),
                    "snowid.node='7:32' is invalid: machine 32 is out of range: allowed 0 to 31"));
            cases.add(bad(jdk, "datacenter out of range", props("snowid.node", "32:1", "snowid.targets", TARGET), env(),
                    "snowid.node='32:1' is invalid: datacenter 32 is out of range: allowed 0 to 31"));
            cases.add(bad(jdk, "bad node from the environment", props("snowid.targets", TARGET), env("SNOWID_NODE", "1:x"),
                    "SNOWID_NODE='1:x' (snowid.node) is invalid"));
            cases.add(bad(jdk, "malformed target", props("snowid.node", "1:1", "snowid.targets", "com.acme.legacy.LegacyIds.nextLong"), env(),
                    "snowid.targets='com.acme.legacy.LegacyIds.nextLong': 'com.acme.legacy.LegacyIds.nextLong' is not a target:"
                            + " expected <fully qualified class name>#<method name>"));
            cases.add(bad(jdk, "constructor as target", props("snowid.node", "1:1", "snowid.targets", "com.acme.Ids#<init>"), env(),
                    "snowid.targets='com.acme.Ids#<init>': 'com.acme.Ids#<init>' is not a target: method name '<init>' is not a Java method name"));
            cases.add(bad(jdk, "no targets", props("snowid.node", "1:1"), env(),
                    "no targets configured: set snowid.targets=<class>#<method>"));
            cases.add(bad(jdk, "misspelt targets", props("snowid.node", "1:1", "snowid.target", "hutool"), env(),
                    "-Dsnowid.target='hutool' is not a setting; did you mean `snowid.targets`? Otherwise: no targets configured"));
            cases.add(bad(jdk, "neither node nor lease URL", props("snowid.targets", TARGET), env(),
                    "no node configured: set snowid.node=<datacenter>:<machine>"));
            cases.add(bad(jdk, "both node and lease URL",
                    props("snowid.node", "1:1", "snowid.lease.url", "http://127.0.0.1:" + closedPort, "snowid.targets", TARGET),
                    env("SNOWID_LEASE_SECRET", "it-712cf6e2aef9b9f3663cd6f95d779cf9a8eb3bd342e2c7b54bca869f0cb3965c"),
                    "snowid.node='1:1' and snowid.lease.url='http://127.0.0.1:" + closedPort + "' are both set: choose one"));
            cases.add(bad(jdk, "lease URL without secret", props("snowid.lease.url", "http://127.0.0.1:" + closedPort, "snowid.targets", TARGET),
                    env(), "snowid.lease.url needs the lease API's bearer secret: set the environment variable SNOWID_LEASE_SECRET"));
            cases.add(bad(jdk, "unreachable lease API", props("snowid.lease.url", "http://127.0.0.1:" + closedPort, "snowid.targets", TARGET,
                    "snowid.lease.startupDeadline", "1000"),
                    env("SNOWID_LEASE_SECRET", "it-712cf6e2aef9b9f3663cd6f95d779cf9a8eb3bd342e2c7b54bca869f0cb3965c"),
                    "snowid.lease.url='http://127.0.0.1:" + closedPort + "': no lease from the lease API at start-up"));
            cases.add(bad(jdk, "lease URL not http", props("snowid.lease.url", "ftp://example.org/", "snowid.targets", TARGET),
                    env("SNOWID_LEASE_SECRET", "it-712cf6e2aef9b9f3663cd6f95d779cf9a8eb3bd342e2c7b54bca869f0cb3965c"), "snowid.lease.url='ftp://example.org/' uses 'ftp': only https"));
            cases.add(bad(jdk, "unsafe onUnavailable", props("snowid.node", "1:1", "snowid.targets", TARGET, "snowid.onUnavailable", "original"),
                    env(), "snowid.onUnavailable='original' is not a policy; allowed: throw"));
            cases.add(bad(jdk, "epoch in the future", props("snowid.node", "1:1", "snowid.targets", TARGET, "snowid.epoch", "99999999999999"),
                    env(), "snowid.epoch='99999999999999' is invalid: epoch 99999999999999 is in the future"));
            cases.add(bad(jdk, "unknown preset", props("snowid.node", "1:1", "snowid.targets", "hutool,mybatisplus"), env(),
                    "snowid.targets='hutool,mybatisplus': 'mybatisplus' is not a preset: presets are [hutool, mybatis-plus]"));
            cases.add(bad(jdk, "malformed kind", props("snowid.node", "1:1", "snowid.targets", TARGET + ":number"), env(),
                    "snowid.targets='" + TARGET + ":number': '" + TARGET + ":number' has an unknown kind ':number': allowed :long"));
            cases.add(bad(jdk, "config file missing", props("snowid.config", "/nonexistent/snowid.properties"), env(),
                    "snowid.config='/nonexistent/snowid.properties' cannot be read: no such file; allowed: the path of a readable properties file"));
            cases.add(bad(jdk, "config file unreadable", props(), env("SNOWID_CONFIG", System.getProperty("java.io.tmpdir")),
                    "SNOWID_CONFIG='" + System.getProperty("java.io.tmpdir") + "' (snowid.config) cannot be read: it is a directory"));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("badConfigurations")
    void stopsTheJvmNamingTheProperty(Jdk jdk, String name, Map<String, String> properties, Map<String, String> environment,
                                      String expectedMessage) throws Exception {
        Path ids = dir.resolve("ids");
        ChildJvm child = ChildJvm.on(jdk);
        properties.forEach(child::property);
        environment.forEach(child::env);

        ChildJvm.Result result = child.run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "10");

        assertEquals(1, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] ERROR: " + expectedMessage), () -> "expected '" + expectedMessage + "' in\n" + result);
        assertFalse(result.stdout.contains("DONE"), () -> "the application ran:\n" + result);
        assertFalse(Files.exists(ids), "the application wrote IDs");
        assertFalse(result.stderr.contains("FATAL ERROR"), () -> "the JVM aborted instead of exiting:\n" + result);
    }

    /** The agent argument (the path of a properties file) and what the file holds are checked like every other setting. */
    @OnEveryJdk
    void badAgentArgumentsAndFilesStopTheJvm(Jdk jdk) throws Exception {
        Path malformed = dir.resolve("malformed.properties");
        Files.write(malformed, "snowid.node=1:1\nsnowid.targets=\\uZZZZ\n".getBytes(StandardCharsets.UTF_8));
        Path badNode = dir.resolve("bad-node.properties");
        Files.write(badNode, Arrays.asList("snowid.node=1:40", "snowid.targets=" + TARGET), StandardCharsets.UTF_8);
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("node=1:1", "agent argument 'node=1:1' (snowid.config) cannot be read: no such file; allowed: the path of a readable"
                + " properties file");
        cases.put(malformed.toString(), "agent argument '" + malformed + "' (snowid.config) is not a properties file: Malformed \\uxxxx encoding");
        cases.put(badNode.toString(), "snowid.node='1:40' (in " + badNode + ") is invalid: machine 40 is out of range: allowed 0 to 31");
        for (Map.Entry<String, String> bad : cases.entrySet()) {
            Path ids = dir.resolve("ids");
            ChildJvm.Result result = ChildJvm.on(jdk).agentArgument(bad.getKey()).run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "10");

            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("[snowid] ERROR: " + bad.getValue()), () -> "expected '" + bad.getValue() + "' in\n" + result);
            assertFalse(result.stdout.contains("DONE"), () -> "the application ran:\n" + result);
        }
    }

    /** -D beats the environment, which beats the file; the file fills in the rest. */
    @OnEveryJdk
    void aConfigFileFillsInWhatPropertiesAndVariablesDoNotSet(Jdk jdk) throws Exception {
        Path config = dir.resolve("snowid.properties");
        Files.write(config, Arrays.asList("# the agent's settings", "snowid.node=1:1", "snowid.epoch=1420070400000",
                "snowid.targets=" + TARGET + ",com.acme.legacy.LegacyIds#nextBoxed,com.acme.legacy.LegacyIds#nextString", "snowid.tragets=x"),
                StandardCharsets.UTF_8);
        Path ids = dir.resolve("ids");
        long epoch = 1_577_836_800_000L;
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .env("SNOWID_CONFIG", config.toString())
                .env("SNOWID_EPOCH", Long.toString(epoch))
                .property("snowid.node", "2:3")
                .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "2", "600");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [unknown_setting] file " + config + ": key snowid.tragets is not a setting of the agent and is ignored"), result::toString);
        assertTrue(result.stderr.contains("node 2:3, epoch " + epoch + ", onUnavailable=throw, 3 target(s)"), result::toString);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 1200, SnowflakeCodec.withEpoch(epoch), 2, 3, before, after);
    }

    /**
     * Issue 32's finding: another user's {@code snowid.properties}, mode 666, naming a capture server
     * as the lease URL. The agent refuses it, naming the file, and the server sees no request (it
     * saw 11 {@code POST /leases} with the secret before).
     */
    @OnEveryJdk
    void aConfigFileAnotherUserCanWriteIsRefusedBeforeAnyRequest(Jdk jdk) throws Exception {
        AtomicInteger requests = new AtomicInteger();
        HttpServer capture = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        capture.createContext("/", exchange -> {
            requests.incrementAndGet();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        capture.start();
        try {
            Path config = dir.resolve("snowid.properties");
            Files.write(config, Arrays.asList("snowid.lease.url=http://127.0.0.1:" + capture.getAddress().getPort() + "/",
                    "snowid.targets=" + TARGET, "snowid.lease.startupDeadline=1000"), StandardCharsets.UTF_8);
            Files.setAttribute(config, "unix:uid", 65534); // nobody: the tests run as root
            Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rw-rw-rw-"));
            Path ids = dir.resolve("ids");

            ChildJvm.Result result = ChildJvm.on(jdk).env("SNOWID_CONFIG", config.toString())
                    .env("SNOWID_LEASE_SECRET", "it-fcLNrUDuFXU8GLATvRm2T3DK")
                    .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "10");

            assertEquals(1, result.exitCode, result::toString);
            assertTrue(result.stderr.contains("[snowid] ERROR: [config_file_untrusted] SNOWID_CONFIG='" + config + "' (snowid.config) is refused: "
                    + config + " (the file) belongs to nobody (uid 65534)"), result::toString);
            assertFalse(result.stdout.contains("DONE"), () -> "the application ran:\n" + result);
            assertEquals(0, requests.get(), () -> "requests the capture server got, with the secret:\n" + result);
        } finally {
            capture.stop(0);
        }
    }

    /**
     * A shell set up for the function's local runner (SNOWID_LEASE_MILLIS, SNOWID_EPOCH_MILLIS …)
     * and an empty SNOWID_NODE must not stop a JVM whose agent has a fixed node: each is one warning.
     */
    @OnEveryJdk
    void theFunctionsVariablesAndEmptyOnesAreWarnedAboutNotFatal(Jdk jdk) throws Exception {
        Path ids = dir.resolve("ids");
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.targets", TARGET + ",com.acme.legacy.LegacyIds#nextBoxed,com.acme.legacy.LegacyIds#nextString")
                .env("SNOWID_TARGETS", "")
                .env("SNOWID_NODE", "2:3")
                .env("SNOWID_LEASE_URL", "")
                .env("SNOWID_LEASE_MILLIS", "60000")
                .env("SNOWID_EPOCH_MILLIS", "1577836800000")
                .run(ids, "com.acme.legacy.LegacyApp", ids.toString(), "1", "10");

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [ignored_setting] SNOWID_LEASE_MILLIS='60000' (snowid.lease.millis) is ignored"), result::toString);
        assertTrue(result.stderr.contains("[snowid] WARNING: [unknown_setting] environment variable SNOWID_EPOCH_MILLIS is not a setting of the agent and is ignored; the agent reads snowid.epoch"
                + " / SNOWID_EPOCH"), result::toString);
        assertTrue(result.stderr.contains(" started in ") && result.stderr.contains("node 2:3, epoch 1288834974657"), result::toString);
        long[] issued = IdsFile.read(ids);
        assertEquals(10, issued.length);
        for (long id : issued) {
            assertEquals(Slot.of(2, 3), SnowflakeCodec.TWITTER.decode(id).slot(), "ID " + id);
        }
    }

    private static Arguments bad(Jdk jdk, String name, Map<String, String> properties, Map<String, String> environment, String message) {
        return Arguments.of(jdk, name, properties, environment, message);
    }

    private static Map<String, String> props(String... pairs) {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private static Map<String, String> env(String... pairs) {
        return props(pairs);
    }
}
