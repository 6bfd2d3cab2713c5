package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release's Maven repository as a team consumes it: a copy of this checkout set to a release
 * version (as scripts/release.sh does) deploys its libraries with {@code mvn deploy} into a
 * {@code file://} repository ({@code scripts/release-repository.sh}), and a fresh Maven project
 * resolves every artifact from there and compiles against the client
 * ({@code scripts/check-release-repository.sh}). The libraries are built without their tests:
 * the build this test runs in runs them.
 */
class ReleaseRepositoryTest {

    private static final String VERSION = "0.0.1";
    /** The libraries, and what they need in the reactor to build; spring-boot/* joins once it exists. */
    private static final List<String> LIBRARIES = List.of("snowid-core", "snowid-protocol", "snowid-region-plan", "snowid-client", "snowid-integrations",
            "snowid-agent");
    /** The Spring Boot starter's modules, once the checkout has them. */
    private static final List<String> SPRING_BOOT = List.of("snowid-spring-boot-autoconfigure", "snowid-spring-boot-starter");
    private static final Path ROOT = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void theLibrariesDeployToAFileRepositoryThatAFreshProjectResolvesAndCompilesAgainst() throws Exception {
        Path checkout = dir.resolve("checkout");
        copyCheckout(ROOT, checkout);
        setVersion(checkout, System.getProperty("snowid.version"), VERSION);
        Path repository = dir.resolve("repository");
        List<String> libraries = new ArrayList<>(LIBRARIES);
        if (Files.isDirectory(checkout.resolve("spring-boot"))) {
            libraries.addAll(SPRING_BOOT);
        }
        // Only the libraries and what they need are built: the whole reactor would take minutes more.
        run(checkout, "scripts/release-repository.sh", repository.toString(), "-DskipTests", "-Dsnowid.skipNpm=true",
                "-pl", libraries.stream().map(a -> ":" + a).collect(Collectors.joining(",")), "-am");

        // The layout: the parent POM, and per library its POM, jar, -sources and -javadoc jars, each with checksums.
        Path group = repository.resolve("dev/snowid");
        Set<String> deployed;
        try (Stream<Path> names = Files.list(group)) {
            deployed = names.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
        libraries.add("snowid-parent");
        for (String artifact : libraries) {
            assertTrue(deployed.contains(artifact), () -> artifact + " is missing from " + deployed);
        }
        for (String tool : List.of("snowid-lambda", "snowid-local", "snowid-dynalite", "snowid-testing-fixtures",
                "snowid-testing-engines", "snowid-testing-lease-api", "snowid-simulator", "snowid-infra", "snowid-bench")) {
            assertTrue(!deployed.contains(tool), () -> tool + " is not a library, yet it was deployed");
        }
        Path client = group.resolve("snowid-client/" + VERSION);
        for (String file : List.of(".pom", ".jar", "-sources.jar", "-javadoc.jar")) {
            for (String sum : List.of("", ".sha1", ".md5", ".sha256", ".sha512")) {
                Path path = client.resolve("snowid-client-" + VERSION + file + sum);
                assertTrue(Files.isRegularFile(path), () -> path + " is missing");
            }
        }
        assertTrue(Files.isRegularFile(group.resolve("snowid-parent/" + VERSION + "/snowid-parent-" + VERSION + ".pom")));

        String out = run(checkout, "scripts/check-release-repository.sh", repository.toString());
        assertTrue(out.contains("compiled against the client"), out);
    }

    /** What {@code mvn versions:set} does to the POMs, offline: every {@code <version>} of the project's. */
    private static void setVersion(Path checkout, String from, String to) throws IOException {
        assertTrue(from != null && !from.isEmpty(), "the build passes snowid.version");
        try (Stream<Path> paths = Files.walk(checkout)) {
            for (Path pom : (Iterable<Path>) paths.filter(p -> p.getFileName().toString().equals("pom.xml"))::iterator) {
                String text = Files.readString(pom, StandardCharsets.UTF_8);
                Files.writeString(pom, text.replace("<version>" + from + "</version>", "<version>" + to + "</version>"), StandardCharsets.UTF_8);
            }
        }
    }

    /** The checkout as it is (uncommitted changes too), without build output or installed packages. */
    private static void copyCheckout(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path relative = from.relativize(path);
                String first = relative.getNameCount() == 0 ? "" : relative.getName(0).toString();
                if (first.equals(".git") || isBuildOutput(relative)) {
                    continue;
                }
                Path target = to.resolve(relative.toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
    }

    private static boolean isBuildOutput(Path relative) {
        for (Path part : relative) {
            if (part.toString().equals("target") || part.toString().equals("node_modules")) {
                return true;
            }
        }
        return false;
    }

    private static String run(Path directory, String... command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("release-repository", ".log");
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean done = process.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            process.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertTrue(done, () -> String.join(" ", command) + " took over 5 minutes:\n" + output);
        assertEquals(0, process.exitValue(), () -> String.join(" ", command) + " failed:\n" + output);
        return output;
    }
}
