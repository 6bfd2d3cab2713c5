package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.dynalite.EngineCredential;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.settings.FunctionSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * {@code run-local.sh registry} as docs/multi-region.md uses it: a claim registry that listens on
 * loopback only, answers only requests showing the credential in its mode-600 file, and that two
 * runners acting as two regions share through that file: the first claims the block, the second
 * refuses with 503 {@code block_not_claimed}.
 */
class LocalRegistryProcessTest {

    private static final Pattern EXPORT = Pattern.compile("^export (.+)$", Pattern.MULTILINE);

    @TempDir
    Path anywhere;

    @Test
    void twoRegionsShareARegistryThatAnswersOnlyLoopbackClientsShowingItsCredential() throws IOException {
        try (RunnerProcess registry = RunnerProcess.startRegistry(anywhere, Map.of())) {
            Map<String, String> exported = exports(registry.output());
            URI endpoint = URI.create(exported.get(FunctionSettings.REGISTRY_ENDPOINT));
            Path file = Path.of(exported.get(LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            assertFalse(registry.output().contains(Files.readString(file).trim()), "the credential itself is never printed");
            assertEquals(List.of("127.0.0.1"), listeningAddresses(endpoint.getPort()), "it listens on loopback only");

            try (DynamoDbClient anyone = LeaseTableClient.builder().endpoint(endpoint).maxAttempts(1).build()) {
                DynamoDbException refused = assertThrows(DynamoDbException.class, anyone::listTables);
                assertEquals(403, refused.statusCode(), refused.getMessage());
            }
            try (DynamoDbClient shown = LeaseTableClient.builder().endpoint(endpoint)
                    .interceptor(new EngineCredentialHeader(EngineCredential.readFile(file))).build()) {
                assertEquals(List.of(LocalRegistry.DEFAULT_TABLE), shown.listTables().tableNames());
            }

            try (RunnerProcess eu = RunnerProcess.start(anywhere, region("eu-local", exported));
                    RunnerProcess us = RunnerProcess.start(anywhere, region("us-local", exported))) {
                HttpResponse<String> ids = eu.send("GET", "/ids", false, null);
                assertEquals(200, ids.statusCode(), ids::body);
                HttpResponse<String> refused = us.send("GET", "/ids", false, null);
                assertEquals(503, refused.statusCode(), refused::body);
                assertTrue(refused.body().contains("\"error\":\"block_not_claimed\""), refused.body());
                assertTrue(us.send("GET", "/health", false, null).body().contains("\"guard\":\"refused\""));
            }
        }
    }

    private static Map<String, String> region(String region, Map<String, String> exported) {
        Map<String, String> env = new HashMap<>(exported);
        env.put(FunctionSettings.REGION, region);
        return env;
    }

    /** NAME=value pairs of the registry's one export line. */
    private static Map<String, String> exports(String output) {
        Matcher line = EXPORT.matcher(output);
        assertTrue(line.find(), output);
        Map<String, String> exported = new HashMap<>();
        for (String pair : line.group(1).trim().split(" ")) {
            int equals = pair.indexOf('=');
            exported.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        assertEquals(java.util.Set.of(FunctionSettings.REGISTRY_ENDPOINT, FunctionSettings.REGISTRY_TABLE,
                LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE), exported.keySet(), output);
        return exported;
    }

    /** The local addresses of every listening TCP socket on {@code port}, as the kernel lists them (IPv6 ones by their hex). */
    private static List<String> listeningAddresses(int port) throws IOException {
        String hexPort = String.format(Locale.ROOT, ":%04X", port);
        List<String> addresses = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> rows = Files.readAllLines(Path.of(table)); // once: the table changes between two reads
            for (String row : rows.subList(1, rows.size())) {
                String[] columns = row.trim().split("\\s+");
                if (columns[1].endsWith(hexPort) && columns[3].equals("0A")) { // 0A: LISTEN
                    String hex = columns[1].substring(0, columns[1].indexOf(':'));
                    addresses.add(hex.length() == 8 ? ipv4(hex) : "ipv6 " + hex);
                }
            }
        }
        return addresses;
    }

    /** /proc/net/tcp writes an IPv4 address as one little-endian hex word. */
    private static String ipv4(String hex) {
        long word = Long.parseLong(hex, 16);
        return (word & 0xff) + "." + (word >> 8 & 0xff) + "." + (word >> 16 & 0xff) + "." + (word >> 24 & 0xff);
    }
}
