package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local runner's jar as a user gets it: copied out of the repository, run with {@code java -jar}
 * from another directory, with an empty per-user cache. It installs its pinned engine there
 * once, and the next start finds it.
 */
class LocalRunnerJarIT {

    @TempDir
    Path home;

    @Test
    void theJarRunsAnywhereAndInstallsItsEngineIntoTheUserCacheOnce() throws Exception {
        Path jar = Files.createDirectories(home.resolve("bin")).resolve("snowid-local.jar");
        Files.copy(Paths.get(System.getProperty("snowid.test.localJar")), jar);
        Path work = Files.createDirectories(home.resolve("work"));
        Path cache = home.resolve("cache");
        Map<String, String> env = Map.of("XDG_CACHE_HOME", cache.toString());

        try (RunnerProcess first = RunnerProcess.startJar(jar, work, env)) {
            assertTrue(first.output().contains("installing dynalite 4.0.0 into " + cache.resolve("snowid").resolve("dynalite")),
                    first.output());
            assertEquals(200, first.send("GET", "/ids?count=3", false, null).statusCode());
            first.process().destroy(); // SIGTERM, as a service manager stops it
            assertTrue(first.process().waitFor(20, TimeUnit.SECONDS));
            RunnerProcess.await(() -> !Files.exists(first.folder()), Duration.ofSeconds(5), "its folder is deleted");
        }
        try (RunnerProcess second = RunnerProcess.startJar(jar, work, env)) {
            assertFalse(second.output().contains("installing"), "installed once:\n" + second.output());
            assertEquals(200, second.send("GET", "/ids?count=3", false, null).statusCode());
        }
    }
}
