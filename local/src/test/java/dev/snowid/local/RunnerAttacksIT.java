package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.dynalite.DynaliteInstall;
import dev.snowid.lambda.dynamodb.LeaseTableSchema;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Attacks on the runner (issues 20 and 26), against its real jar ({@code java -jar
 * snowid-local.jar} in a child process): engine code planted where the runner used to look or
 * behind a link, and percent-encoded routes past the quarantine gate.
 */
class RunnerAttacksIT {

    @TempDir
    Path top;

    /**
     * Another user's {@code dynalite/} above the working directory, and one beside the copied
     * jar: neither runs. The runner installs its own into the per-user cache instead.
     */
    @Test
    void aPlantedDynaliteAboveTheWorkingDirectoryOrBesideTheJarNeverRuns() throws IOException {
        Path owned = top.resolve("owned");
        plant(top.resolve("dynalite"), owned);
        plant(top.resolve("bin").resolve("dynalite"), owned);
        Path jar = top.resolve("bin").resolve("snowid-local.jar");
        Files.copy(Paths.get(System.getProperty("snowid.test.localJar")), jar);
        Path work = Files.createDirectories(top.resolve("a").resolve("b"));
        Path cache = top.resolve("cache");

        try (RunnerProcess runner = RunnerProcess.startJar(jar, work, Map.of("XDG_CACHE_HOME", cache.toString()))) {
            assertEquals(200, runner.send("GET", "/ids", false, null).statusCode());
            assertTrue(runner.output().contains("installing dynalite 4.0.0 into " + cache.resolve("snowid").resolve("dynalite")),
                    runner.output());
        }
        assertFalse(Files.exists(owned), "the planted cli.js ran as the runner's user");
    }

    /**
     * A link to a copy of the pinned install that others can write, with code planted in it:
     * refused, because the check follows the link (it used to skip every link, the folder's own
     * included, and the planted code ran).
     */
    @Test
    void aLinkToAFolderOthersCanWriteWithPlantedCodeNeverRuns() throws IOException {
        Path owned = top.resolve("owned");
        Path shared = copyOfTheInstall(top.resolve("shared"));
        String code = "require('fs').writeFileSync(" + quoted(owned) + ", 'ran as ' + process.getuid())\n";
        Files.writeString(shared.resolve("node_modules/dynalite/index.js"), code + Files.readString(shared.resolve("node_modules/dynalite/index.js")));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path link = Files.createSymbolicLink(top.resolve("engine"), shared);

        String output = RunnerProcess.runJarToExit(Paths.get(System.getProperty("snowid.test.localJar")), top,
                Map.of(LocalSettings.LOCAL_DYNALITE_DIR, link.toString()));
        assertTrue(output.contains("refusing to run dynalite from " + link) && output.contains(shared + " is writable by every user"), output);
        assertFalse(Files.exists(owned), "the planted code ran as the runner's user");
    }

    /** While the runner refuses to serve, {@code /%69ds} is {@code /ids} and {@code /%6Ceases} is {@code /leases}: refused. */
    @Test
    void percentEncodedRoutesAreHeldBackWhileTheTableLostRows() {
        Path jar = Paths.get(System.getProperty("snowid.test.localJar"));
        Map<String, String> shortLeases = Map.of("SNOWID_LEASE_MILLIS", "5000", "SNOWID_MAX_CLOCK_SKEW_MILLIS", "250",
                "SNOWID_DATACENTERS", "0", "SNOWID_MACHINES", "0-3");
        try (RunnerProcess runner = RunnerProcess.startJar(jar, top, shortLeases)) {
            HttpResponse<String> lease = runner.send("POST", "/leases", true, "");
            assertEquals(201, lease.statusCode(), lease.body());
            String slot = field(lease.body(), "slot");
            HttpResponse<String> ids = runner.send("GET", "/ids", false, null);
            assertEquals(200, ids.statusCode(), ids.body());
            String id = ids.body().replaceAll("(?s).*\"ids\":\\[\"(\\d+)\".*", "$1");

            try (DynamoDbClient client = runner.engineClient()) {
                client.deleteItem(d -> d.tableName("snowid-leases")
                        .key(Map.of(LeaseTableSchema.SLOT, AttributeValue.fromN(slot))));
            }
            RunnerProcess.await(() -> runner.send("GET", "/ids", false, null).statusCode() == 503, Duration.ofSeconds(10),
                    "IDs are refused once the runner sees the row is gone");

            for (String path : new String[] {"/%69ds", "/%69%64%73?count=2", "/ids"}) {
                HttpResponse<String> refused = runner.send("GET", path, false, null);
                assertEquals(503, refused.statusCode(), path + ": " + refused.body());
                assertTrue(refused.body().contains("store_unavailable"), refused.body());
            }
            for (String path : new String[] {"/%6Ceases", "/%6c%65%61%73%65%73", "/leases"}) {
                HttpResponse<String> refused = runner.send("POST", path, true, "");
                assertEquals(503, refused.statusCode(), "POST " + path + ": " + refused.body());
            }
            // Only what needs no lease still answers.
            assertEquals(200, runner.send("GET", "/ids/" + id, false, null).statusCode());
            assertEquals(200, runner.send("GET", "/health", false, null).statusCode());
            // A path that only decodes to a route matches none (as at API Gateway): never answered as it.
            assertEquals(404, runner.send("GET", "/%68ealth", false, null).statusCode());
        }
    }

    private static String field(String json, String name) {
        Matcher value = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertTrue(value.find(), name + " in " + json);
        return value.group(1);
    }

    /** A dynalite/ folder as the runner used to accept it, whose code leaves a file behind when it runs. */
    private static void plant(Path folder, Path owned) throws IOException {
        Path module = Files.createDirectories(folder.resolve("node_modules").resolve("dynalite"));
        Files.writeString(folder.resolve("package.json"), "{\"dependencies\":{\"dynalite\":\"4.0.0\"}}");
        String code = "require('fs').writeFileSync(" + quoted(owned) + ", 'ran as ' + process.getuid())\n";
        Files.writeString(module.resolve("cli.js"), code);
        Files.writeString(module.resolve("index.js"), code + "module.exports = require('./cli.js')\n");
        Files.writeString(module.resolve("package.json"), "{\"name\":\"dynalite\",\"version\":\"4.0.0\",\"main\":\"index.js\"}");
    }

    /** The build's own install (the repository's dynalite/ module), copied as it is (links as links, modes kept). */
    private static Path copyOfTheInstall(Path target) throws IOException {
        Path source = DynaliteInstall.find(Map.of(), System.out);
        Files.createDirectories(target);
        Process copy = new ProcessBuilder("cp", "-a", source.resolve("node_modules").toString(), source.resolve("package.json").toString(),
                target.toString()).inheritIO().start();
        try {
            assertTrue(copy.waitFor(60, TimeUnit.SECONDS), "cp -a of " + source);
            assertEquals(0, copy.exitValue(), "cp -a of " + source);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return target;
    }

    private static String quoted(Path path) {
        return "'" + path.toString().replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
