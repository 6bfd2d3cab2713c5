package dev.snowid.dynalite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The per-user install the jar makes when no dynalite is found: real npm, a throwaway cache folder. */
class DynaliteCacheTest {

    @TempDir
    Path cacheHome;

    @Test
    void installsThePinnedDynaliteOnceThenReusesIt() {
        DynaliteCache cache = new DynaliteCache(cacheHome);
        ByteArrayOutputStream said = new ByteArrayOutputStream();

        Path installed = cache.install("npm", new PrintStream(said, true, StandardCharsets.UTF_8));

        assertEquals(cacheHome.resolve("snowid").resolve("dynalite").resolve(DynaliteCache.pinHash()), installed);
        assertTrue(said.toString(StandardCharsets.UTF_8).contains("installing dynalite 4.0.0 into " + installed), said::toString);
        assertEquals(1, entries(installed.getParent()), "no staging folder is left behind");
        try (Dynalite dynalite = Dynalite.start(installed);
             DynamoDbClient client = EngineClient.of(dynalite.endpoint())) {
            assertTrue(client.listTables().tableNames().isEmpty());
        }
        // Installed: npm is not run again (this command does not exist).
        assertEquals(installed, cache.install("no-such-npm-command", System.out));
    }

    @Test
    void withoutNpmTheErrorSaysSoAndNothingHalfInstalledRemains() {
        DynaliteCache cache = new DynaliteCache(cacheHome);

        IllegalStateException failed = assertThrows(IllegalStateException.class,
                () -> cache.install("no-such-npm-command", System.out));

        assertTrue(failed.getMessage().contains("could not run `no-such-npm-command`"), failed.getMessage());
        assertFalse(cache.installed().isPresent());
        assertEquals(0, entries(cacheHome.resolve("snowid").resolve("dynalite")), "the staging folder is deleted");
    }

    @Test
    void theInstallFolderChangesWithThePin() {
        assertTrue(new DynaliteCache(cacheHome).folder().endsWith(Path.of("snowid", "dynalite", DynaliteCache.pinHash())));
        assertEquals(12, DynaliteCache.pinHash().length());
        assertEquals("4.0.0", DynaliteCache.pinnedVersion(), "the version dynalite/package.json pins");
    }

    private static long entries(Path folder) {
        try (Stream<Path> children = Files.list(folder)) {
            return children.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
