package dev.snowid.agent.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.snowid.Slot;
import dev.snowid.agent.config.AgentProperties;
import dev.snowid.internal.Setting;
import dev.snowid.lease.HeldSlot;
import dev.snowid.protocol.SlotMap;
import dev.snowid.testing.SettingsTables;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code leases <url>}: the slot map as a grid, drawn from a fixed fixture. */
class LeasesCommandTest {

    /** As {@code openssl rand -base64 32} makes them: the CLI judges a secret's strength before it sends it. */
    private static final String SECRET = "wkbigRgy++p/8YrVpvvaZUyBtjS9TPHRQbcU4s0bM/g=";
    private static final String WRONG_SECRET = "AwItB+JFGIQ4fZRWhJ0XDfnp9Geyf1uX3xQvWPjVFTM=";

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private HttpServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void theFixtureIsDrawnAsWritten() throws IOException {
        String grid = SlotGrid.render(SlotMap.read(resource("slot-map.json")));
        assertEquals(resource("slot-grid.txt"), grid);
    }

    @Test
    void theCommandReadsGetLeasesWithTheSecretFromTheEnvironment() throws IOException {
        int port = serve(200, resource("slot-map.json"));

        int status = run(Collections.singletonMap(CliSettings.SECRET_VARIABLE, " " + SECRET + "\n"), "http://127.0.0.1:" + port);

        assertEquals(0, status, err.toString());
        assertEquals(resource("slot-grid.txt"), out.toString("UTF-8"));
        assertEquals(Collections.singletonList("GET /leases Bearer " + SECRET), authorizations);
    }

    @Test
    void aRefusedSecretIsExit1WithTheApisWords() throws IOException {
        int port = serve(401, "{\"error\":\"unauthorized\",\"message\":\"the bearer secret is wrong\"}");
        assertEquals(1, run(Collections.singletonMap(CliSettings.SECRET_VARIABLE, WRONG_SECRET), "http://127.0.0.1:" + port));
        assertTrue(err.toString("UTF-8").contains("the bearer secret is wrong"), err.toString("UTF-8"));
    }

    /** Issue 32: the CLI sent any secret it was given; it now judges it as the agent does, before any request. */
    @Test
    void aGuessableSecretIsExit2WithTheCodeAndHowToMakeOneAndNothingIsSent() throws IOException {
        int port = serve(200, resource("slot-map.json"));
        for (String weak : new String[] {"s3cret", "qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFGHJKLZXCVBNM",
            "1q2w3e4r5t6y7u8i9o0p!Q@W#E$R%T^Y&U*I(O)P", "Password1!Password2!Password3!Password4!", "correcthorsebatterystaple2024",
            "2024-06-01T12:34:56.789+02:00 Europe/Berlin", "bXktc2VjcmV0LXBhc3N3b3Jk",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}) {
            err.reset();
            assertEquals(2, run(Collections.singletonMap(CliSettings.SECRET_VARIABLE, weak), "http://127.0.0.1:" + port), weak);
            String said = err.toString("UTF-8");
            assertTrue(said.contains("[weak_lease_secret] the environment variable " + CliSettings.SECRET_VARIABLE + " is ")
                    && said.contains("openssl rand -base64 32"), said);
            assertTrue(!said.contains(weak), "the secret is not echoed: " + said);
        }
        assertEquals(Collections.emptyList(), authorizations, "no weak secret was sent");
    }

    @Test
    void noSecretOrNoUrlIsExit2NamingWhatIsMissing() throws IOException {
        assertEquals(2, run(Collections.<String, String>emptyMap(), "http://127.0.0.1:1"));
        assertTrue(err.toString("UTF-8").contains(CliSettings.SECRET_VARIABLE), err.toString("UTF-8"));
        assertEquals(2, run(Collections.singletonMap(CliSettings.SECRET_VARIABLE, SECRET)));
        assertEquals(2, run(Collections.singletonMap(CliSettings.SECRET_VARIABLE, SECRET), "ftp://x"));
    }

    /** Issue 32: the CLI said nothing about sending the secret in clear; now it refuses, naming the opt-in. */
    @Test
    void theSecretOverPlainHttpToAnotherHostIsExit2UnlessAllowed() throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put(CliSettings.SECRET_VARIABLE, SECRET);
        assertEquals(2, run(env, "http://snowid-runner.invalid:8080"));
        assertTrue(err.toString("UTF-8").startsWith("[secret_over_plain_http] 'http://snowid-runner.invalid:8080' is plain http to"
                + " snowid-runner.invalid, which is not this machine") && err.toString("UTF-8").contains("set SNOWID_LEASE_ALLOWPLAINHTTP=true"),
                err.toString("UTF-8"));

        err.reset();
        env.put("SNOWID_LEASE_ALLOWPLAINHTTP", "true");
        assertEquals(1, run(env, "http://snowid-runner.invalid:8080"), "opted in: asked, and no API there");
        assertFalse(err.toString("UTF-8").contains("secret_over_plain_http"), err.toString("UTF-8"));
        assertFalse(err.toString("UTF-8").contains("unknown_setting"), "the CLI reads the opt-in: " + err.toString("UTF-8"));
    }

    @Test
    void awsIamWithoutTheIamJarIsExit2NamingIt() throws IOException {
        // The unshaded class path has no SDK marker: as the plain snowid-agent.jar.
        assertEquals(2, run(Collections.singletonMap(CliSettings.AUTH_VARIABLE, "aws_iam"), "http://127.0.0.1:1"));
        assertTrue(err.toString("UTF-8").contains("needs snowid-agent-iam.jar"), err.toString("UTF-8"));
    }

    @Test
    void aMistypedVariableIsNamedWithTheOneMeantAndItsValueNeverShown() throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SNOWID_LEASE_SECRT", "typed-in-the-wrong-place-9f2c1d");
        assertEquals(2, run(env, "http://127.0.0.1:1"));
        String said = err.toString("UTF-8");
        assertTrue(said.contains("warning: [unknown_setting] environment variable SNOWID_LEASE_SECRT is not a setting of the agent's CLI and is ignored;"
                + " did you mean `SNOWID_LEASE_SECRET`?"), said);
        assertTrue(said.contains(CliSettings.SECRET_VARIABLE + " is not set"), said);
        assertTrue(!said.contains("typed-in-the-wrong-place"), said);

        err.reset();
        env.clear();
        env.put(CliSettings.AUTH_VARIABLE, "iam");
        assertEquals(2, run(env, "http://127.0.0.1:1"));
        assertTrue(err.toString("UTF-8").startsWith("SNOWID_LEASE_AUTH='iam' is not a lease auth mode; allowed 'bearer'"),
                err.toString("UTF-8"));
    }

    @Test
    void aFullPoolOfAThousandHoldersStaysOneScreen() {
        long now = 1_700_000_000_000L;
        List<Slot> all = new ArrayList<>();
        List<HeldSlot> held = new ArrayList<>();
        for (int index = 0; index < Slot.COUNT; index++) {
            all.add(Slot.ofIndex(index));
            held.add(new HeldSlot(Slot.ofIndex(index), "environment " + index % 1000 + " of a long-named function deployment",
                    1, 0, now + index * 60));
        }
        Map<String, List<Slot>> parts = new LinkedHashMap<>();
        parts.put("function", all.subList(0, 768));
        parts.put("agents", all.subList(768, Slot.COUNT));

        String grid = SlotGrid.render(SlotMap.of(now, 60_000, parts, held));

        List<String> lines = Arrays.asList(grid.split("\n"));
        assertTrue(lines.size() <= 50, lines.size() + " lines:\n" + grid);
        for (String line : lines) {
            assertTrue(line.length() <= 100, "too wide: " + line);
        }
        assertTrue(grid.contains("… and 992 more holders"), grid);
        assertEquals(32, lines.stream().filter(l -> l.matches(" ?\\d+ [FA+]+ +[#!.]{32}")).count(), grid);
    }

    private int run(Map<String, String> env, String... args) {
        return LeasesCommand.run(args, env, new PrintStream(out, true), new PrintStream(err, true));
    }

    private int serve(int status, String body) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", http -> {
            authorizations.add(http.getRequestMethod() + " " + http.getRequestURI().getPath() + " "
                    + http.getRequestHeaders().getFirst("Authorization"));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            http.getResponseHeaders().add("Content-Type", "application/json");
            http.sendResponseHeaders(status, bytes.length);
            http.getResponseBody().write(bytes);
            http.close();
        });
        server.start();
        return server.getAddress().getPort();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = LeasesCommandTest.class.getResourceAsStream("/leases/" + name)) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) > 0; ) {
                bytes.write(buffer, 0, n);
            }
            return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theDocsSettingsTableSaysWhatTheCommandsRead() {
        assertEquals(Collections.emptyList(), SettingsTables.problems("cli", CliSettings.CATALOGUE));
    }

    @Test
    void theCommandsSettingsAreTheAgentsUnderTheirVariables() {
        for (Setting<?> command : CliSettings.CATALOGUE.settings()) {
            Setting<?> agent = AgentProperties.CATALOGUE.setting(command.name());
            assertNotNull(agent, command + " is not a variable of the agent");
            assertEquals(agent.defaultValue(), command.defaultValue(), command.name());
            assertEquals(agent.unsetMeans(), command.unsetMeans(), command.name());
            assertEquals(agent.allowedValues(), command.allowedValues(), command.name());
            assertEquals(agent.isSecret(), command.isSecret(), command.name());
        }
    }

    @Test
    void aBadValueIsNamedOnceWithItsVariable() throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put(CliSettings.STARTUP_DEADLINE_VARIABLE, "soon");
        assertEquals("SNOWID_LEASE_STARTUPDEADLINE='soon' is not a whole number; allowed a whole number from 0 to 600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> CliSettings.values(env).get(CliSettings.STARTUP_DEADLINE)).getMessage());
        env.put(CliSettings.AUTH_VARIABLE, "aws_iam");
        env.put(CliSettings.REGION_VARIABLE, "eu west");
        assertEquals("SNOWID_LEASE_REGION='eu west' is invalid: region 'eu west' is not an AWS region name such as eu-west-1",
                assertThrows(IllegalArgumentException.class, () -> CliSettings.leaseApi(env, new java.net.URL("https://x.example"), "h",
                        "the check needs")).getMessage());
        env.put(CliSettings.ALLOW_PLAIN_HTTP_VARIABLE, "yes");
        assertEquals("SNOWID_LEASE_ALLOWPLAINHTTP='yes' is not a switch: allowed true or false",
                assertThrows(IllegalArgumentException.class, () -> CliSettings.values(env).get(
                        CliSettings.CATALOGUE.setting(CliSettings.ALLOW_PLAIN_HTTP_VARIABLE))).getMessage());
    }
}
