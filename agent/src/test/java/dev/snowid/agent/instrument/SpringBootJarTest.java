package dev.snowid.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading nested jars' directories in Spring Boot's layout, without the loader. */
class SpringBootJarTest {

    @TempDir
    Path dir;

    @Test
    void findsClassesInBootInfClassesAndInStoredNestedJars() throws IOException {
        Path jar = bootJar(true, "com/acme/App.class", jarWith("c/d/Deep.class", "c/d/Other.class"), jarWith("e/F.class"));

        assertEquals(set("com/acme/App.class", "c/d/Deep.class", "e/F.class"),
                find(jar, "com/acme/App.class", "c/d/Deep.class", "e/F.class", "x/Missing.class"));
    }

    @Test
    void aJarWithoutSpringBootsManifestIsNotLookedInto() throws IOException {
        Path jar = bootJar(false, "com/acme/App.class", jarWith("c/d/Deep.class"));

        assertEquals(set(), find(jar, "com/acme/App.class", "c/d/Deep.class"));
    }

    @Test
    void aNestedJarItCannotReadCountsAsHoldingEverything() throws IOException {
        Path jar = bootJar(true, "com/acme/App.class", "not a jar at all".getBytes());

        assertEquals(set("x/Missing.class"), find(jar, "x/Missing.class"), "better no note than a false one");
    }

    private static Set<String> find(Path jar, String... resources) {
        Set<String> found = new HashSet<>();
        SpringBootJar.find(jar.toFile(), set(resources), found);
        return found;
    }

    private static Set<String> set(String... values) {
        return new HashSet<>(Arrays.asList(values));
    }

    private Path bootJar(boolean bootManifest, String appClass, byte[]... nestedJars) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (bootManifest) {
            manifest.getMainAttributes().putValue("Spring-Boot-Classes", "BOOT-INF/classes/");
            manifest.getMainAttributes().putValue("Spring-Boot-Lib", "BOOT-INF/lib/");
        }
        Path jar = dir.resolve("app-" + bootManifest + nestedJars.length + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.putNextEntry(new JarEntry("BOOT-INF/classes/" + appClass));
            out.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
            out.closeEntry();
            for (int i = 0; i < nestedJars.length; i++) {
                JarEntry nested = new JarEntry("BOOT-INF/lib/lib-" + i + ".jar");
                nested.setMethod(ZipEntry.STORED); // as Spring Boot writes them
                nested.setSize(nestedJars[i].length);
                CRC32 crc = new CRC32();
                crc.update(nestedJars[i]);
                nested.setCrc(crc.getValue());
                out.putNextEntry(nested);
                out.write(nestedJars[i]);
                out.closeEntry();
            }
        }
        return jar;
    }

    private static byte[] jarWith(String... entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream out = new JarOutputStream(bytes)) {
            for (String entry : entries) {
                out.putNextEntry(new JarEntry(entry));
                byte[] body = new byte[5000];
                Arrays.fill(body, (byte) entry.length());
                ((OutputStream) out).write(body);
                out.closeEntry();
            }
            out.setComment("a comment the end record must be found past");
        }
        return bytes.toByteArray();
    }
}
