package dev.snowid.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class AgentSettingsTest {

    private final Properties properties = new Properties();
    private final Map<String, String> environment = new HashMap<>();

    private AgentSettings read() {
        return AgentSettings.read(properties, environment);
    }

    private String failure() {
        return assertThrows(AgentConfigurationException.class, this::read).getMessage();
    }

    @Test
    void fixedNodeWithTargets() {
        properties.setProperty("snowid.node", "7:13");
        properties.setProperty("snowid.targets", "com.acme.Ids#next, com.acme.Ids$Inner#nextString,com.acme.Ids#next");

        AgentSettings settings = read();

        assertEquals(Slot.of(7, 13), settings.node());
        assertNull(settings.leaseUrl());
        assertEquals(Arrays.asList("com.acme.Ids#next", "com.acme.Ids$Inner#nextString"), Arrays.asList(
                settings.targets().get(0).toString(), settings.targets().get(1).toString()));
        assertEquals(2, settings.targets().size(), "duplicates are dropped");
        assertEquals(1288834974657L, settings.codec().epochMillis());
        assertEquals("throw", settings.onUnavailable().toString());
        assertTrue(settings.warnings().isEmpty(), settings.warnings()::toString);
    }

    @Test
    void environmentIsTheFallbackAndPropertiesWin() {
        environment.put("SNOWID_NODE", "1:2");
        environment.put("SNOWID_TARGETS", "a.B#c");
        environment.put("SNOWID_EPOCH", "1577836800000");
        assertEquals(Slot.of(1, 2), read().node());
        assertEquals(1577836800000L, read().codec().epochMillis());

        properties.setProperty("snowid.node", "3:4");
        assertEquals(Slot.of(3, 4), read().node());
    }

    @Test
    void aLeasedNodeAdoptsTheApisEpochUnlessOneIsConfigured() {
        properties.setProperty("snowid.lease.url", "https://api.example.org/prod");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", "s");
        assertTrue(!read().epochConfigured(), "none configured: the lease API's is adopted");
        assertTrue(read().summary(dev.snowid.SnowflakeCodec.withEpoch(1_600_000_000_000L))
                .contains("epoch 1600000000000 (the lease API's)"), read().summary(dev.snowid.SnowflakeCodec.TWITTER));
        environment.put("SNOWID_EPOCH", "1577836800000");
        assertTrue(read().epochConfigured());
        assertEquals(1577836800000L, read().codec().epochMillis());
    }

    @Test
    void theStartUpWaitForASlotIsBoundedAndOnlyForALeasedNode() {
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.lease.url", "https://api.example.org/prod");
        environment.put("SNOWID_LEASE_SECRET", "s");
        assertEquals(0, read().waitForSlotMillis(), "default: exit at once when the pool is full");
        environment.put("SNOWID_LEASE_WAITFORSLOT", "30000");
        assertEquals(30_000, read().waitForSlotMillis());
        properties.setProperty("snowid.lease.waitForSlot", "3600001");
        assertEquals("snowid.lease.waitForSlot='3600001' is out of range; allowed: a whole number of ms from 0 (the default: exit at"
                + " once when every slot is held) to 3600000 (wait that long at start-up for a slot to free)", failure());
        properties.setProperty("snowid.lease.waitForSlot", "1m");
        assertTrue(failure().contains("is not a number"), failure());

        properties.remove("snowid.lease.url");
        properties.remove("snowid.lease.waitForSlot");
        properties.setProperty("snowid.node", "1:2");
        assertTrue(failure().startsWith("SNOWID_LEASE_WAITFORSLOT='30000' (snowid.lease.waitForSlot) only applies to a leased node"),
                failure());
    }

    @Test
    void envNamesFollowTheRule() {
        assertEquals("SNOWID_LEASE_URL", AgentSettings.envName("snowid.lease.url"));
        assertEquals("SNOWID_ONUNAVAILABLE", AgentSettings.envName("snowid.onUnavailable"));
    }

    @Test
    void leasedNodePrefersTheSecretFromTheEnvironment() {
        properties.setProperty("snowid.lease.url", "https://api.example.org/prod");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", "from-env");

        AgentSettings settings = read();
        assertEquals("https://api.example.org/prod", settings.leaseUrl().toString());
        assertEquals("from-env", settings.leaseSecret());
        assertTrue(settings.warnings().isEmpty());

        properties.setProperty("snowid.lease.secret", "from-property");
        settings = read();
        assertEquals("from-env", settings.leaseSecret());
        assertTrue(settings.warnings().get(0).contains("using the environment variable"), settings.warnings()::toString);

        environment.remove("SNOWID_LEASE_SECRET");
        settings = read();
        assertEquals("from-property", settings.leaseSecret());
        assertTrue(settings.warnings().get(0).contains("process list"), settings.warnings()::toString);
    }

    @Test
    void plainHttpToAnotherHostIsWarnedAbout() {
        properties.setProperty("snowid.lease.url", "http://ids.internal:8080");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", "s");
        assertTrue(read().warnings().get(0).contains("unencrypted"));

        properties.setProperty("snowid.lease.url", "http://127.0.0.1:8080");
        assertTrue(read().warnings().isEmpty());
    }

    @Test
    void leaseMillisIsBoundedAndOnlyForLeasedNodes() {
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.lease.millis", "10000");
        assertTrue(failure().startsWith("snowid.lease.millis='10000' only applies to a leased node"));

        properties.remove("snowid.node");
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        environment.put("SNOWID_LEASE_SECRET", "s");
        assertEquals(10000, read().leaseMillis());
        properties.setProperty("snowid.lease.millis", "4999");
        assertTrue(failure().contains("out of range; allowed: a whole number of ms from 5000 to 3600000"));
        properties.setProperty("snowid.lease.millis", "ten");
        assertTrue(failure().contains("is not a number"));
    }

    @Test
    void jmxIsOnUnlessSwitchedOffAndOnlyTrueOrFalse() {
        properties.setProperty("snowid.node", "7:13");
        properties.setProperty("snowid.targets", "a.B#c");
        assertTrue(read().jmx());
        environment.put("SNOWID_JMX", "false");
        assertFalse(read().jmx());
        properties.setProperty("snowid.jmx", "no");
        String message = failure();
        assertTrue(message.startsWith("snowid.jmx='no' is not a switch: allowed true"), message);
    }

    @Test
    void badValuesNameThePropertyAndWhatIsAllowed() {
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.node", "7:13:1");
        assertTrue(failure().startsWith("snowid.node='7:13:1' is invalid: '7:13:1' is not a node"));
        properties.setProperty("snowid.node", "-1:3");
        assertTrue(failure().startsWith("snowid.node='-1:3' is invalid"));

        properties.setProperty("snowid.node", "1:1");
        for (String bad : new String[] {"com.acme.Ids", "com..Ids#next", "com.acme.1Ids#next", "com.acme.Ids#", "com.acme.Ids#ne-xt", "a.B#c#d"}) {
            properties.setProperty("snowid.targets", bad);
            String message = failure();
            assertTrue(message.startsWith("snowid.targets='" + bad + "'") && message.contains("expected <fully qualified class name>#<method name>"),
                    message);
        }
        properties.setProperty("snowid.targets", " , ");
        assertTrue(failure().startsWith("no targets configured"));

        properties.setProperty("snowid.targets", "a.b.C#d");
        properties.setProperty("snowid.epoch", "-1");
        assertTrue(failure().startsWith("snowid.epoch='-1' is invalid: epoch -1 is out of range"));
        properties.setProperty("snowid.epoch", "2020");
        assertEquals(2020, read().codec().epochMillis());
        properties.setProperty("snowid.epoch", "2020-01-01");
        assertTrue(failure().startsWith("snowid.epoch='2020-01-01' is not a number"));
    }

    @Test
    void onUnavailableAllowsOnlyFailingClosed() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.onUnavailable", "wait:250");
        assertEquals(250, read().onUnavailable().waitMillis());
        for (String bad : new String[] {"wait:0", "wait:60001", "wait:", "fallback", "original", "zero"}) {
            properties.setProperty("snowid.onUnavailable", bad);
            String message = failure();
            assertTrue(message.startsWith("snowid.onUnavailable='" + bad + "'") && message.contains("allowed: throw"), message);
        }
    }

    @Test
    void unknownSnowidPropertiesAreWarnedAbout() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.target", "a.B#d");
        assertTrue(read().warnings().get(0).startsWith("unknown system property snowid.target is ignored"));
    }

    @Test
    void emptyValuesCountAsNotSet() {
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_NODE", "");
        environment.put("SNOWID_EPOCH", " ");
        environment.put("SNOWID_ONUNAVAILABLE", "");
        environment.put("SNOWID_LEASE_MILLIS", "");
        environment.put("SNOWID_LEASE_SECRET", "s");
        AgentSettings settings = read();
        assertNull(settings.node(), "an empty SNOWID_NODE is no fixed node beside the lease URL");
        assertEquals(1288834974657L, settings.codec().epochMillis());
        assertEquals("throw", settings.onUnavailable().toString());
        assertEquals(0, settings.leaseMillis());

        environment.put("SNOWID_LEASE_SECRET", "");
        assertTrue(failure().startsWith("snowid.lease.url needs the lease API's bearer secret"));
        properties.setProperty("snowid.lease.url", "");
        assertTrue(failure().startsWith("no node configured"));
    }

    @Test
    void theFunctionsLeaseMillisVariableDoesNotStopAFixedNode() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_MILLIS", "60000"); // set for the function's local runner in the same shell
        AgentSettings settings = read();
        assertEquals(Slot.of(1, 1), settings.node());
        assertEquals(0, settings.leaseMillis());
        assertEquals(Arrays.asList("SNOWID_LEASE_MILLIS='60000' (snowid.lease.millis) is ignored: it only applies to a leased node"
                + " (snowid.lease.url), and a fixed node (snowid.node) has no lease"), settings.warnings());

        properties.setProperty("snowid.lease.millis", "60000"); // asked for explicitly: a mistake
        assertTrue(failure().startsWith("snowid.lease.millis='60000' only applies to a leased node"));
    }

    @Test
    void snowidVariablesTheAgentDoesNotReadAreWarnedAboutNamingItsEquivalent() {
        properties.setProperty("snowid.node", "1:1");
        environment.put("SNOWID_TARGETS", "a.B#c");
        environment.put("SNOWID_EPOCH_MILLIS", "1577836800000");
        environment.put("SNOWID_TABLE", "snowid-leases");
        environment.put("SNOWID_LEASE_SECRET_SHA256", "ab");
        environment.put("PATH", "/usr/bin");
        AgentSettings settings = read();
        assertEquals(1288834974657L, settings.codec().epochMillis(), "the function's variable is not the agent's");
        assertEquals(3, settings.warnings().size(), settings.warnings()::toString);
        assertEquals("environment variable SNOWID_EPOCH_MILLIS is ignored: the agent reads snowid.epoch / SNOWID_EPOCH",
                settings.warnings().get(0));
        assertTrue(settings.warnings().get(1).startsWith("environment variable SNOWID_LEASE_SECRET_SHA256 is ignored: it is the function's"
                + " hash of the secret; the agent reads the secret itself from SNOWID_LEASE_SECRET"), settings.warnings()::toString);
        assertTrue(settings.warnings().get(2).startsWith("environment variable SNOWID_TABLE is ignored: it is not an agent setting")
                && settings.warnings().get(2).contains("SNOWID_NODE"), settings.warnings()::toString);
    }
}
