package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The runner's jar: it starts the runner, carries dynalite's pin, snowid's LICENSE and NOTICE,
 * and every class in it lies in a package NOTICE lists for the function jar or for this one.
 */
class LocalJarIT {

    private static final Pattern PACKAGES = Pattern.compile("\\[packages: ([^\\]]+)]");

    @Test
    void theJarStartsTheRunnerCarriesThePinAndItsNoticeNamesWhatItBundles() throws IOException {
        Path root = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
        String notice = Files.readString(root.resolve("NOTICE"), StandardCharsets.UTF_8);
        // The function jar's list and the local jar's additions to it.
        String section = notice.substring(notice.indexOf("snowid-function.jar ("));
        assertTrue(section.contains("snowid-local.jar ("), "NOTICE has a section for snowid-local.jar");
        List<String> packages = new ArrayList<>();
        Matcher listed = PACKAGES.matcher(section);
        while (listed.find()) {
            for (String name : listed.group(1).split(",")) {
                packages.add(name.strip().replace('.', '/') + "/");
            }
        }

        Path jar = Path.of(System.getProperty("snowid.test.localJar")).toAbsolutePath();
        try (JarFile file = new JarFile(jar.toFile())) {
            assertEquals(LocalRunner.class.getName(), file.getManifest().getMainAttributes().getValue("Main-Class"));
            for (String pin : new String[] {"package.json", "package-lock.json", "dynalite-child.js"}) {
                assertNotNull(file.getEntry("dev/snowid/dynalite/" + pin), pin + " is in " + jar);
                assertEquals(Files.readString(root.resolve("dynalite").resolve(pin), StandardCharsets.UTF_8),
                        text(file, "dev/snowid/dynalite/" + pin), pin + " is the repository's");
            }
            assertEquals(Files.readString(root.resolve("LICENSE"), StandardCharsets.UTF_8), text(file, "META-INF/LICENSE"));
            assertTrue(text(file, "META-INF/NOTICE").startsWith(notice), "META-INF/NOTICE begins with snowid's NOTICE");
            TreeSet<String> unlisted = new TreeSet<>();
            for (JarEntry entry : (Iterable<JarEntry>) file.stream()::iterator) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/") && packages.stream().noneMatch(name::startsWith)) {
                    unlisted.add(name.contains("/") ? name.substring(0, name.lastIndexOf('/')) : name);
                }
            }
            assertEquals(new TreeSet<>(), unlisted, "packages in " + jar.getFileName() + " that NOTICE does not list as bundled");
        }
    }

    private static String text(JarFile file, String name) throws IOException {
        JarEntry entry = file.getJarEntry(name);
        assertNotNull(entry, name + " is missing");
        return new String(file.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
}
