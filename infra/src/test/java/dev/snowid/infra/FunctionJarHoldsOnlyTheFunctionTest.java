package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * What runs in Lambda is what is in the Lambda jar: the handler, and nothing of the local runner
 * (its classes, the dynalite engine's classes and files, a Main-Class that starts a server) or of
 * the lease API's client (the function shares only the wire contract with it, snowid-protocol), nor
 * the client's secret-strength estimator, zxcvbn: the function holds hashes only, and its cold start
 * would load the estimator's dictionaries for nothing.
 */
class FunctionJarHoldsOnlyTheFunctionTest {

    @Test
    void theFunctionJarHoldsNoLocalRunnerNoDynaliteNoClientAndNoMainClass() throws IOException {
        Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
        try (JarFile file = new JarFile(jar.toFile())) {
            assertNotNull(file.getEntry("dev/snowid/lambda/SnowidHandler.class"), "the handler is in " + jar);
            assertNotNull(file.getEntry("dev/snowid/protocol/LeaseRoute.class"), "the wire contract is in " + jar);
            TreeSet<String> local = new TreeSet<>();
            for (JarEntry entry : (Iterable<JarEntry>) file.stream()::iterator) {
                String name = entry.getName();
                if (name.startsWith("dev/snowid/local/") || name.startsWith("dev/snowid/dynalite/")
                        || name.startsWith("dev/snowid/lambda/local/") || name.startsWith("dev/snowid/client/")
                        || name.startsWith("com/nulabinc/")
                        || name.endsWith("package.json")
                        || name.endsWith("package-lock.json") || name.endsWith("dynalite-child.js")) {
                    local.add(name);
                }
            }
            assertEquals(new TreeSet<>(), local, "the local runner's and the client's entries in " + jar.getFileName());
            assertNull(file.getManifest().getMainAttributes().getValue("Main-Class"), "the function jar's Main-Class");
        }
    }
}
