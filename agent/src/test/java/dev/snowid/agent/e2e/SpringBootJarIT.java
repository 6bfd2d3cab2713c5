package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.loader.tools.Library;
import org.springframework.boot.loader.tools.LibraryScope;
import org.springframework.boot.loader.tools.Repackager;

/**
 * A Spring Boot executable jar, repackaged here by spring-boot-loader-tools (the code behind
 * spring-boot-maven-plugin's repackage goal): the application's classes in BOOT-INF/classes,
 * Hutool nested in BOOT-INF/lib, Spring Boot's own launcher. Targets in both are redirected and
 * not noted as missing from the class path; a name that is in neither still is.
 */
class SpringBootJarIT {

    @TempDir
    Path dir;

    static Stream<Jdk> jdks() {
        return Jdk.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void targetsInNestedJarsAndBootInfClassesAreRedirectedWithoutFalseNotes(Jdk jdk) throws Exception {
        Path app = executableJar();
        Path ids = dir.resolve("ids");
        long before = System.currentTimeMillis();
        ChildJvm.Result result = ChildJvm.on(jdk)
                .property("snowid.node", "17:2")
                .property("snowid.targets", "hutool,com.acme.boot.BootIds#next,com.acme.boot.Typo#next")
                .runJar(ids, app, ids.toString(), "30000");
        long after = System.currentTimeMillis();

        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stdout.contains("LOADER org.springframework.boot.loader.launch.LaunchedClassLoader"), result::toString);
        assertFalse(result.stdout.contains("ORIGINAL-BODY-RAN"), result::toString);
        assertFalse(result.stderr.contains("note: cn.hutool.core.lang.Snowflake"), () -> "false note for a nested jar's class:\n" + result);
        assertFalse(result.stderr.contains("note: com.acme.boot.BootIds"), () -> "false note for a BOOT-INF/classes class:\n" + result);
        assertTrue(result.stderr.contains("[snowid] note: com.acme.boot.Typo (of com.acme.boot.Typo#next) is not on the application class path"),
                () -> "a class that is nowhere is still noted:\n" + result);
        assertTrue(result.stderr.contains("[snowid] redirected long cn.hutool.core.lang.Snowflake#nextId() in org.springframework.boot.loader.launch"
                + ".LaunchedClassLoader@"), result::toString);
        assertTrue(result.stderr.contains("[snowid] redirected long com.acme.boot.BootIds#next() in org.springframework.boot.loader.launch"
                + ".LaunchedClassLoader@"), result::toString);
        AgentRedirectIT.assertAllFrom(IdsFile.read(ids), 30000, SnowflakeCodec.TWITTER, 17, 2, before, after);
    }

    /** The application's classes in a plain jar, repackaged with Hutool as a nested library. */
    private Path executableJar() throws IOException {
        Path plain = dir.resolve("boot-app.jar");
        Path classes = Paths.get(ChildJvm.FIXTURE_CLASSES);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(plain));
             Stream<Path> files = Files.list(classes.resolve("com/acme/boot"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, (OutputStream) out);
                out.closeEntry();
            }
        }
        File hutool = Arrays.stream(ChildJvm.FIXTURE_LIBRARIES.split(File.pathSeparator))
                .filter(entry -> new File(entry).getName().startsWith("hutool-core-")).map(File::new).findFirst().orElse(null);
        assertNotNull(hutool, "hutool-core in " + ChildJvm.FIXTURE_LIBRARIES);
        Path executable = dir.resolve("boot-app-exec.jar");
        Repackager repackager = new Repackager(plain.toFile());
        repackager.setMainClass("com.acme.boot.BootApp");
        repackager.setBackupSource(false);
        repackager.repackage(executable.toFile(), callback -> callback.library(new Library(hutool, LibraryScope.COMPILE)));
        try (JarFile jar = new JarFile(executable.toFile())) {
            assertNotNull(jar.getEntry("BOOT-INF/lib/" + hutool.getName()), "Hutool is nested");
            assertNotNull(jar.getEntry("BOOT-INF/classes/com/acme/boot/BootIds.class"), "the application's classes are under BOOT-INF/classes");
            assertEquals("org.springframework.boot.loader.launch.JarLauncher", jar.getManifest().getMainAttributes().getValue("Main-Class"));
        }
        return executable;
    }
}
