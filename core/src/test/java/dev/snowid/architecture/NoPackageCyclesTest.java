package dev.snowid.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No module's main code has a package cycle: packages by concern only help if a concern can be
 * read without the ones that use it. Every module of the root POM is checked from here, from its
 * sources, so a cycle fails the first module of every build (core) rather than only a full one.
 */
class NoPackageCyclesTest {

    @Test
    void noModuleHasAPackageCycle() throws IOException {
        Path root = repositoryRoot();
        List<String> modules = modules(root);
        assertTrue(modules.contains("core") && modules.contains("lambda") && modules.contains("agent"), "modules read: " + modules);
        List<String> found = new ArrayList<>();
        for (String module : modules) {
            for (PackageCycles.Cycle cycle : PackageCycles.in(root.resolve(module).resolve("src/main/java"))) {
                found.add(module + ": " + cycle);
            }
        }
        assertTrue(found.isEmpty(), () -> "package cycles (break each by moving what the lower package needs into it, or "
                + "below both):\n" + String.join("\n", found));
    }

    /** The folder whose POM lists this module: the build runs each module's tests in the module's folder. */
    private static Path repositoryRoot() throws IOException {
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            if (Files.isRegularFile(pom) && new String(Files.readAllBytes(pom), StandardCharsets.UTF_8).contains("<module>core</module>")) {
                return dir;
            }
        }
        throw new IllegalStateException("no POM listing <module>core</module> above " + Paths.get("").toAbsolutePath());
    }

    private static List<String> modules(Path root) throws IOException {
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(
                new String(Files.readAllBytes(root.resolve("pom.xml")), StandardCharsets.UTF_8));
        List<String> modules = new ArrayList<>();
        while (module.find()) {
            modules.add(module.group(1).trim());
        }
        return modules;
    }
}
