package dev.snowid.infra;

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
 * The function jar carries snowid's LICENSE and NOTICE, and its NOTICE names everything it
 * bundles: every class of the jar lies in a package NOTICE lists for it, and every licence file
 * NOTICE points to is in the jar. A new dependency that the NOTICE does not mention fails here.
 */
class FunctionJarLicenceTest {

    private static final Pattern PACKAGES = Pattern.compile("\\[packages: ([^\\]]+)]");
    private static final Pattern LICENCE_FILE = Pattern.compile("META-INF/[A-Za-z0-9./_-]+");

    @Test
    void theJarCarriesTheLicenceAndNoticeAndTheNoticeNamesWhatItBundles() throws IOException {
        Path root = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
        String notice = Files.readString(root.resolve("NOTICE"), StandardCharsets.UTF_8);
        // The function jar's own list: up to the local runner's, which adds to it.
        String section = notice.substring(notice.indexOf("snowid-function.jar ("), notice.indexOf("snowid-local.jar ("));
        List<String> packages = new ArrayList<>();
        Matcher listed = PACKAGES.matcher(section);
        while (listed.find()) {
            for (String name : listed.group(1).split(",")) {
                packages.add(name.strip().replace('.', '/') + "/");
            }
        }
        assertTrue(packages.size() >= 5, "packages listed in NOTICE: " + packages);

        Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
        try (JarFile file = new JarFile(jar.toFile())) {
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

            Matcher licenceFiles = LICENCE_FILE.matcher(section);
            while (licenceFiles.find()) {
                String named = licenceFiles.group().replaceAll("[.)]+$", "");
                assertNotNull(file.getEntry(named), "NOTICE points to " + named + ", which is not in the jar");
            }
        }
    }

    private static String text(JarFile file, String name) throws IOException {
        JarEntry entry = file.getJarEntry(name);
        assertNotNull(entry, name + " is missing");
        return new String(file.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
}
