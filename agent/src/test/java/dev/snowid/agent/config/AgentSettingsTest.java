package dev.snowid.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.client.ClientSettings;
import java.util.Collections;
import dev.snowid.testing.SettingsTables;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentSettingsTest {

    /** A secret as {@code openssl rand -base64 32} makes them. */
    private static final String SECRET = "q1OuYz0bT7m8k2Vf9QnLx3RaPw5JcE6dHs4Gi+Ut0/8=";

    private final Properties properties = new Properties();
    private final Map<String, String> environment = new HashMap<>();

    private AgentSettings read() {
        return AgentSettings.read(properties, environment);
    }

    /** The message the settings fail with, whose punctuation every such message keeps. */
    private String failure() {
        String message = assertThrows(AgentConfigurationException.class, this::read).getMessage();
        assertEquals(java.util.List.of(), dev.snowid.testing.MessageProse.strayPunctuation(message));
        return message;
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
        environment.put("SNOWID_LEASE_SECRET", SECRET);
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
        environment.put("SNOWID_LEASE_SECRET", SECRET);
        assertEquals(0, read().waitForSlotMillis(), "default: exit at once when the pool is full");
        environment.put("SNOWID_LEASE_WAITFORSLOT", "30000");
        assertEquals(30_000, read().waitForSlotMillis());
        properties.setProperty("snowid.lease.waitForSlot", "3600001");
        assertEquals("snowid.lease.waitForSlot='3600001' is out of range; allowed a whole number from 0 to 3600000 (ms)", failure());
        properties.setProperty("snowid.lease.waitForSlot", "1m");
        assertTrue(failure().contains("is not a whole number"), failure());
        properties.setProperty("snowid.lease.waitForSlot", "+5"); // digits only, as the function reads its settings
        assertTrue(failure().startsWith("snowid.lease.waitForSlot='+5' is not a whole number"), failure());

        properties.remove("snowid.lease.url");
        properties.remove("snowid.lease.waitForSlot");
        properties.setProperty("snowid.node", "1:2");
        assertTrue(failure().startsWith("SNOWID_LEASE_WAITFORSLOT='30000' (snowid.lease.waitForSlot) only applies to a leased node"),
                failure());
    }

    @Test
    void theStartUpDeadlineIsBoundedAndOnlyForALeasedNode() {
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.lease.url", "https://api.example.org/prod");
        environment.put("SNOWID_LEASE_SECRET", SECRET);
        assertEquals(ClientSettings.DEFAULT_STARTUP_DEADLINE_MILLIS, read().startupDeadlineMillis(), "the client's default");
        environment.put("SNOWID_LEASE_STARTUPDEADLINE", "0");
        assertEquals(0, read().startupDeadlineMillis(), "one attempt");
        properties.setProperty("snowid.lease.startupDeadline", "600001");
        assertEquals("snowid.lease.startupDeadline='600001' is out of range; allowed a whole number from 0 to 600000 (ms)", failure());

        properties.remove("snowid.lease.url");
        properties.remove("snowid.lease.startupDeadline");
        properties.setProperty("snowid.node", "1:2");
        assertTrue(failure().startsWith("SNOWID_LEASE_STARTUPDEADLINE='0' (snowid.lease.startupDeadline) only applies to a leased"
                + " node"), failure());
    }

    @Test
    void envNamesFollowTheRule() {
        assertEquals("SNOWID_LEASE_URL", AgentProperties.envName("snowid.lease.url"));
        assertEquals("SNOWID_ONUNAVAILABLE", AgentProperties.envName("snowid.onUnavailable"));
    }

    @Test
    void leasedNodePrefersTheSecretFromTheEnvironment() {
        properties.setProperty("snowid.lease.url", "https://api.example.org/prod");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", "from-env-141bc02747bebdaebf6bbcf8798d518d92d85fc06f09a78567b99193de77e8c3");

        AgentSettings settings = read();
        assertEquals("https://api.example.org/prod", settings.leaseUrl().toString());
        assertEquals("from-env-141bc02747bebdaebf6bbcf8798d518d92d85fc06f09a78567b99193de77e8c3", settings.leaseSecret());
        assertTrue(settings.warnings().isEmpty());

        properties.setProperty("snowid.lease.secret", "from-property-1360561d2d238ab4ad93ac7d5ee9486670ecf085b514c108628d4244be135e89");
        settings = read();
        assertEquals("from-env-141bc02747bebdaebf6bbcf8798d518d92d85fc06f09a78567b99193de77e8c3", settings.leaseSecret());
        assertTrue(settings.warnings().get(0).startsWith("[secret_in_system_property] snowid.lease.secret is set both")
                && settings.warnings().get(0).contains("using the environment variable"), settings.warnings()::toString);

        environment.remove("SNOWID_LEASE_SECRET");
        settings = read();
        assertEquals("from-property-1360561d2d238ab4ad93ac7d5ee9486670ecf085b514c108628d4244be135e89", settings.leaseSecret());
        assertTrue(settings.warnings().get(0).startsWith("[secret_in_system_property] ") && settings.warnings().get(0).contains("process list"),
                settings.warnings()::toString);
    }

    /** Issue 32: the secret never crosses the network in clear unless the operator opted in; signed requests are warned about. */
    @Test
    void theSecretOverPlainHttpToAnotherHostIsRefusedUnlessAllowed() {
        properties.setProperty("snowid.lease.url", "http://ids.internal:8080");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", SECRET);
        assertEquals("[secret_over_plain_http] snowid.lease.url='http://ids.internal:8080' is plain http to ids.internal, which is not"
                + " this machine: the bearer secret would cross the network unencrypted, for anyone on the way to read and use; use https,"
                + " or, on a network you trust (a runner reached by a compose service name), set snowid.lease.allowPlainHttp=true (or"
                + " SNOWID_LEASE_ALLOWPLAINHTTP=true)", failure());

        environment.put("SNOWID_LEASE_ALLOWPLAINHTTP", "true");
        assertEquals(Arrays.asList("[unencrypted_lease_url] snowid.lease.url uses plain http to ids.internal: lease requests travel"
                + " unencrypted; use https"), read().warnings());
        assertTrue(read().allowPlainHttp());
        environment.put("SNOWID_LEASE_ALLOWPLAINHTTP", "yes");
        assertTrue(failure().startsWith("SNOWID_LEASE_ALLOWPLAINHTTP='yes' (snowid.lease.allowPlainHttp) is not a switch: allowed true or"
                + " false"), this::failure);

        environment.remove("SNOWID_LEASE_ALLOWPLAINHTTP");
        properties.setProperty("snowid.lease.url", "http://127.0.0.1:8080");
        assertTrue(read().warnings().isEmpty(), "loopback: nothing leaves the machine");
        properties.setProperty("snowid.lease.url", "http://localhost:8080");
        assertTrue(read().warnings().isEmpty(), "loopback: nothing leaves the machine");
    }

    /** Issue 35: audit lines are printed only when asked for, and the switch applies to a leased node alone. */
    @Test
    void auditLinesArePrintedOnlyWhenSwitchedOn() {
        properties.setProperty("snowid.lease.url", "http://127.0.0.1:8080");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", SECRET);
        assertFalse(read().auditAtInfo(), "off by default");
        environment.put("SNOWID_LEASE_AUDITATINFO", "true");
        assertTrue(read().auditAtInfo());
        environment.put("SNOWID_LEASE_AUDITATINFO", "on");
        assertTrue(failure().startsWith("SNOWID_LEASE_AUDITATINFO='on' (snowid.lease.auditAtInfo) is not a switch: allowed true or"
                + " false"), this::failure);
        environment.remove("SNOWID_LEASE_AUDITATINFO");
        properties.remove("snowid.lease.url");
        properties.setProperty("snowid.node", "1:2");
        properties.setProperty("snowid.lease.auditAtInfo", "true");
        assertTrue(failure().contains("snowid.lease.auditAtInfo='true' only applies to a leased node (snowid.lease.url)"), this::failure);
    }

    @Test
    void signedRequestsOverPlainHttpAreOnlyWarnedAbout() {
        properties.setProperty("snowid.lease.url", "http://ids.internal:8080");
        properties.setProperty("snowid.lease.auth", "aws_iam");
        properties.setProperty("snowid.lease.region", "eu-west-1");
        properties.setProperty("snowid.targets", "a.B#c");
        assertEquals(Arrays.asList("[unencrypted_lease_url] snowid.lease.url uses plain http to ids.internal: lease requests travel"
                + " unencrypted; use https"), read().warnings());
    }

    @Test
    void leaseMillisIsBoundedAndOnlyForLeasedNodes() {
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.lease.millis", "10000");
        assertTrue(failure().startsWith("snowid.lease.millis='10000' only applies to a leased node"));

        properties.remove("snowid.node");
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        environment.put("SNOWID_LEASE_SECRET", SECRET);
        assertEquals(10000, read().leaseMillis());
        properties.setProperty("snowid.lease.millis", "4999");
        assertTrue(failure().contains("out of range; allowed a whole number from 5000 to 3600000 (ms)"), this::failure);
        properties.setProperty("snowid.lease.millis", "ten");
        assertTrue(failure().contains("is not a whole number"));
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
        assertTrue(failure().startsWith("snowid.epoch='-1' is not a whole number"));
        properties.setProperty("snowid.epoch", "2020");
        assertEquals(2020, read().codec().epochMillis());
        properties.setProperty("snowid.epoch", "2020-01-01");
        assertTrue(failure().startsWith("snowid.epoch='2020-01-01' is not a whole number"));
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
        assertTrue(read().warnings().get(0).startsWith("[unknown_setting] system property snowid.target is not a setting of the agent and is ignored"),
                read().warnings()::toString);
    }

    @Test
    void aTypoInARequiredPropertyIsNamedWithTheSettingMeant() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.target", "hutool");
        String message = failure();
        assertTrue(message.startsWith("-Dsnowid.target='hutool' is not a setting; did you mean `snowid.targets`? Otherwise: no targets configured"),
                message);

        properties.remove("snowid.node");
        properties.remove("snowid.target");
        properties.setProperty("snowid.targets", "hutool");
        properties.setProperty("snowid.nodes", "7:13");
        message = failure();
        assertTrue(message.startsWith("-Dsnowid.nodes='7:13' is not a setting; did you mean `snowid.node`? Otherwise: no node configured"),
                message);

        properties.remove("snowid.nodes");
        environment.put("SNOWID_LEASE_URLL", "https://api.example.org");
        message = failure();
        assertTrue(message.startsWith("environment variable SNOWID_LEASE_URLL='https://api.example.org' is not a setting;"
                + " did you mean `SNOWID_LEASE_URL`?"), message);
    }

    @Test
    void anUnknownPropertyIsWarnedAboutWithTheClosestName() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.epoc", "0");
        environment.put("SNOWID_TARGETSS", "a.B#c");
        List<String> warnings = read().warnings();
        assertTrue(warnings.contains("[unknown_setting] system property snowid.epoc is not a setting of the agent and is ignored; did you mean `snowid.epoch`?"),
                warnings::toString);
        assertTrue(warnings.contains("[unknown_setting] environment variable SNOWID_TARGETSS is not a setting of the agent and is ignored; did you mean"
                + " `SNOWID_TARGETS`?"), warnings::toString);
    }

    @Test
    void emptyValuesCountAsNotSet() {
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_NODE", "");
        environment.put("SNOWID_EPOCH", " ");
        environment.put("SNOWID_ONUNAVAILABLE", "");
        environment.put("SNOWID_LEASE_MILLIS", "");
        environment.put("SNOWID_LEASE_SECRET", SECRET);
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
    void aWeakSecretIsRefusedNamingWhereItCameFromAndHowToMakeOne() {
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_SECRET", "s3cret-but-short");
        String refused = failure();
        assertTrue(refused.startsWith("[weak_lease_secret] the environment variable SNOWID_LEASE_SECRET is too weak"), refused);
        assertTrue(refused.contains("openssl rand -base64 32") && !refused.contains("s3cret-but-short"), refused);

        environment.remove("SNOWID_LEASE_SECRET");
        properties.setProperty("snowid.lease.secret", "0123456789abcdef0123"); // 20 hex digits: 80 bits
        assertTrue(failure().startsWith("[weak_lease_secret] the system property snowid.lease.secret is too weak"), failure());
        properties.setProperty("snowid.lease.secret", "b3fa19a26e8bed7acb75d6ece948bc5fc78be6e54ac0318048e0345cd129fa58"); // openssl rand -hex 32
        assertEquals("b3fa19a26e8bed7acb75d6ece948bc5fc78be6e54ac0318048e0345cd129fa58", read().leaseSecret());
    }

    /** Issue 32: each of these passed the agent's hand-written estimate; zxcvbn's guesses refuse them. */
    @Test
    void guessableSecretsAreRefused() {
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        properties.setProperty("snowid.targets", "a.B#c");
        for (String weak : new String[] {"qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM", "1q2w3e4r5t6y7u8i9o0p!Q@W#E$R%T^Y&U*I(O)P",
            "Password1!Password2!Password3!Password4!", "correcthorsebatterystaple2024", "2024-06-01T12:34:56.789+02:00 Europe/Berlin",
            "bXktc2VjcmV0LXBhc3N3b3Jk", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}) {
            environment.put("SNOWID_LEASE_SECRET", weak);
            String refused = failure();
            assertTrue(refused.startsWith("[weak_lease_secret] the environment variable SNOWID_LEASE_SECRET is "), weak + ": " + refused);
            assertTrue(refused.contains("openssl rand -base64 32") && !refused.contains(weak), refused);
        }
    }

    @Test
    void theFunctionsLeaseMillisVariableDoesNotStopAFixedNode() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "a.B#c");
        environment.put("SNOWID_LEASE_MILLIS", "60000"); // set for the function's local runner in the same shell
        AgentSettings settings = read();
        assertEquals(Slot.of(1, 1), settings.node());
        assertEquals(0, settings.leaseMillis());
        assertEquals(Arrays.asList("[ignored_setting] SNOWID_LEASE_MILLIS='60000' (snowid.lease.millis) is ignored: it only applies to a leased node"
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
        assertEquals("[unknown_setting] environment variable SNOWID_EPOCH_MILLIS is not a setting of the agent and is ignored; the agent reads snowid.epoch"
                + " / SNOWID_EPOCH", settings.warnings().get(0));
        assertTrue(settings.warnings().get(1).startsWith("[unknown_setting] environment variable SNOWID_LEASE_SECRET_SHA256 is not a setting of the agent and"
                + " is ignored; it is the function's hash of the secret; the agent reads the secret itself from SNOWID_LEASE_SECRET"),
                settings.warnings()::toString);
        assertTrue(settings.warnings().get(2).startsWith("[unknown_setting] environment variable SNOWID_TABLE is not a setting of the agent and is ignored;"
                + " the agent reads [SNOWID_NODE"), settings.warnings()::toString);
    }

    @Test
    void presetsExpandAndMixWithTargets() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "hutool, com.acme.Ids#next:string ,mybatis-plus,cn.hutool.core.lang.Snowflake#nextId");

        AgentSettings settings = read();

        assertEquals(Arrays.asList("cn.hutool.core.lang.Snowflake#nextId", "com.acme.Ids#next:string",
                "com.baomidou.mybatisplus.core.toolkit.Sequence#nextId"), Arrays.asList(settings.targets().stream().map(Target::toString).toArray()),
                "a preset's target named again is redirected once");
        assertEquals(Preset.HUTOOL, settings.targets().get(0).preset());
        assertEquals(Target.Kind.STRING, settings.targets().get(1).kind());
        assertNull(settings.targets().get(1).preset());
        assertTrue(settings.summary(settings.codec()).endsWith("3 target(s) (presets: hutool, mybatis-plus)"), settings.summary(settings.codec()));
        assertTrue(settings.warnings().isEmpty(), settings.warnings()::toString);
    }

    @Test
    void unknownPresetsKindsAndConflictingKindsNameTheSetting() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "Hutool");
        assertEquals("snowid.targets='Hutool': 'Hutool' is not a preset: presets are [hutool, mybatis-plus] (did you mean `hutool`?);"
                + " a target is <fully qualified"
                + " class name>#<method name>[:long|:string], e.g. com.acme.Ids#next", failure());
        properties.setProperty("snowid.targets", "com.acme.Ids#next:str");
        assertTrue(failure().startsWith("snowid.targets='com.acme.Ids#next:str': 'com.acme.Ids#next:str' has an unknown kind ':str'"
                + ": allowed :long (a Long, the default) or :string"), this::failure);
        properties.setProperty("snowid.targets", "com.acme.Ids#next:");
        assertTrue(failure().contains("has an unknown kind ':'"), this::failure);
        properties.setProperty("snowid.targets", "com.acme.Ids#next:long,com.acme.Ids#next:string");
        assertTrue(failure().endsWith("com.acme.Ids#next:long and com.acme.Ids#next:string name the same methods with different kinds;"
                + " name them once"), this::failure);
    }

    @Test
    void aPresetsEpochOtherThanSnowidsIsWarnedAbout() {
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "mybatis-plus");
        AgentSettings settings = read();
        assertTrue(settings.presetShapeWarnings(settings.codec()).isEmpty(), "same epoch and layout as MyBatis-Plus");

        assertEquals(Arrays.asList("[preset_epoch_differs] preset mybatis-plus: MyBatis-Plus issues its IDs with epoch 1288834974657 (41-bit ms | 5-bit datacenter"
                + " | 5-bit machine | 12-bit sequence), snowid with epoch 1577836800000: the IDs change shape, new IDs sort below the"
                + " ones it already issued and can repeat them; keep 1288834974657 for an application with stored IDs (see docs/migration.md)"),
                settings.presetShapeWarnings(SnowflakeCodec.withEpoch(1577836800000L)), "e.g. the lease API's epoch");
        assertTrue(settings.presetShapeWarnings(SnowflakeCodec.withEpoch(1000)).get(0).contains("new IDs jump far above the ones it already issued"));
        properties.setProperty("snowid.targets", "com.acme.Ids#next");
        assertTrue(read().presetShapeWarnings(SnowflakeCodec.withEpoch(1000)).isEmpty(), "no preset, no library to compare with");
    }

    @Test
    void theConfigFileComesAfterPropertiesAndVariables(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("snowid.properties");
        Files.write(file, Arrays.asList("snowid.node=1:1", "snowid.targets=hutool", "snowid.epoch=1577836800000",
                "snowid.onUnavailable=wait:50", "other.key=1", "snowid.config=/elsewhere"), StandardCharsets.UTF_8);
        properties.setProperty("snowid.config", file.toString());

        AgentSettings settings = read();
        assertEquals(Slot.of(1, 1), settings.node());
        assertEquals(1577836800000L, settings.codec().epochMillis());
        assertEquals(50, settings.onUnavailable().waitMillis());
        assertTrue(settings.warnings().contains("[unknown_setting] file " + file + ": key other.key is not a setting of the agent and is ignored; the agent"
                + " reads " + AgentProperties.ALL), settings.warnings()::toString);
        assertTrue(settings.warnings().contains("[nested_config_file] snowid.config in " + file + " is ignored: a file cannot name another"), settings.warnings()::toString);

        environment.put("SNOWID_NODE", "2:2");
        environment.put("SNOWID_EPOCH", "1420070400000");
        properties.setProperty("snowid.epoch", "1262304000000");
        settings = read();
        assertEquals(Slot.of(2, 2), settings.node(), "the environment overrides the file");
        assertEquals(1262304000000L, settings.codec().epochMillis(), "a system property overrides both");

        environment.clear();
        Files.write(file, Arrays.asList("snowid.node=1:32", "snowid.targets=a.B#c"), StandardCharsets.UTF_8);
        assertEquals("snowid.node='1:32' (in " + file + ") is invalid: machine 32 is out of range: allowed 0 to 31", failure());
    }

    @Test
    void theConfigFileMayHoldTheSecretUnlessEveryoneCanReadIt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("snowid.properties");
        Files.write(file, Arrays.asList("snowid.lease.url=https://api.example.org", "snowid.lease.secret=from-file-de81036b2306ff0c3133f31df546a3091c60ecb1c057f01ae10dc4be00330bde", "snowid.targets=a.B#c"),
                StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        environment.put("SNOWID_CONFIG", file.toString());
        assertEquals("from-file-de81036b2306ff0c3133f31df546a3091c60ecb1c057f01ae10dc4be00330bde", read().leaseSecret());
        assertTrue(read().warnings().isEmpty(), read().warnings()::toString);

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertEquals(Arrays.asList("[secret_file_readable] snowid.lease.secret is in " + file + ", which every user of this machine can read; allow only the"
                + " application's user (chmod o-r)"), read().warnings());

        environment.put("SNOWID_LEASE_SECRET", "from-env-141bc02747bebdaebf6bbcf8798d518d92d85fc06f09a78567b99193de77e8c3");
        assertEquals("from-env-141bc02747bebdaebf6bbcf8798d518d92d85fc06f09a78567b99193de77e8c3", read().leaseSecret(), "the environment variable wins for the secret");
    }

    @Test
    void aMissingOrUnreadableConfigFileAndBadAgentArgumentsNameTheSetting(@TempDir Path dir) throws IOException {
        properties.setProperty("snowid.config", dir.resolve("missing.properties").toString());
        assertTrue(failure().startsWith("snowid.config='" + dir.resolve("missing.properties") + "' cannot be read: no such file; allowed: the"
                + " path of a readable properties file"), this::failure);
        properties.remove("snowid.config");
        environment.put("SNOWID_CONFIG", dir.toString());
        assertTrue(failure().startsWith("SNOWID_CONFIG='" + dir + "' (snowid.config) cannot be read: it is a directory"), this::failure);
        Path latin1 = dir.resolve("latin1.properties");
        Files.write(latin1, "snowid.node=1:1\nsnowid.targets=a.B#c\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        environment.put("SNOWID_CONFIG", latin1.toString());
        assertTrue(failure().endsWith("cannot be read: it is not UTF-8 text; allowed: the path of a readable properties file with snowid.* keys"
                + " (e.g. snowid.node=7:13), absolute or relative to the working directory " + System.getProperty("user.dir")
                + "; the agent argument, if any, is such a path"), this::failure);

        environment.clear();
        properties.setProperty("snowid.node", "1:1");
        properties.setProperty("snowid.targets", "a.B#c");
        String message = assertThrows(AgentConfigurationException.class, () -> AgentSettings.read(properties, environment, "node=1:1")).getMessage();
        assertTrue(message.startsWith("agent argument 'node=1:1' (snowid.config) cannot be read: no such file;"), message);
        assertTrue(message.endsWith("; the agent argument, if any, is such a path"), message);
        Path file = dir.resolve("snowid.properties");
        Files.write(file, Arrays.asList("snowid.epoch=1577836800000"), StandardCharsets.UTF_8);
        properties.setProperty("snowid.config", dir.resolve("missing.properties").toString());
        assertEquals(1577836800000L, AgentSettings.read(properties, environment, file.toString()).codec().epochMillis(),
                "the agent argument names the file, before snowid.config");
    }

    @Test
    void theDocsSettingsTableSaysWhatTheCatalogueDeclares() {
        assertEquals(Collections.emptyList(), SettingsTables.problems("agent", AgentProperties.CATALOGUE));
    }

    @Test
    void aSecretsValueIsNeverShownInAMessage() {
        properties.setProperty("snowid.targets", "a.B#c");
        properties.setProperty("snowid.lease.url", "https://api.example.org");
        properties.setProperty("snowid.lease.auth", "aws_iam");
        properties.setProperty("snowid.lease.secret", "never-shown-f6c600af6c7a87dd057039c5821039c072e8a568b6a10e8a3cd146ffba8024dd");
        String refused = failure();
        assertTrue(refused.startsWith("snowid.lease.secret=<secret, not shown> is set, but snowid.lease.auth=aws_iam"), refused);

        properties.remove("snowid.lease.auth");
        properties.remove("snowid.lease.secret");
        environment.put("SNOWID_LEASE_SECRT", "never-shown-either-Zp3L8sW6cY");
        String typo = failure();
        assertTrue(typo.startsWith("environment variable SNOWID_LEASE_SECRT=<not shown> is not a setting; did you mean"
                + " `SNOWID_LEASE_SECRET`?"), typo);
        assertFalse(refused.contains("never-shown") || typo.contains("never-shown"), refused + typo);
    }
}
