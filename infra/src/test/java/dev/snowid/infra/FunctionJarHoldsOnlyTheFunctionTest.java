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
 * (its classes, the dynalite engine's classes and files, a Main-Class that starts a server).
 */
class FunctionJarHoldsOnlyTheFunctionTest {

    @Test
    void theFunctionJarHoldsNoLocalRunnerNoDynaliteAndNoMainClass() throws IOException {
        Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
        try (JarFile file = new JarFile(jar.toFile())) {
            assertNotNull(file.getEntry("dev/snowid/lambda/SnowidHandler.class"), "the handler is in " + jar);
            TreeSet<String> local = new TreeSet<>();
            for (JarEntry entry : (Iterable<JarEntry>) file.stream()::iterator) {
                String name = entry.getName();
                if (name.startsWith("dev/snowid/local/") || name.startsWith("dev/snowid/dynalite/")
                        || name.startsWith("dev/snowid/lambda/local/") || name.endsWith("package.json")
                        || name.endsWith("package-lock.json") || name.endsWith("dynalite-child.js")) {
                    local.add(name);
                }
            }
            assertEquals(new TreeSet<>(), local, "the local runner's entries in " + jar.getFileName());
            assertNull(file.getManifest().getMainAttributes().getValue("Main-Class"), "the function jar's Main-Class");
        }
    }
}
