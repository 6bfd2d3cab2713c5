package dev.snowid.agent.e2e;

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
 * snowid-agent.jar and snowid-agent-iam.jar carry snowid's LICENSE and NOTICE, and the NOTICE
 * names what each bundles: every class lies in the agent's own package or in one NOTICE lists
 * for that jar, and every licence file NOTICE points to is in the jar.
 */
class AgentJarLicenceIT {

    private static final Pattern PACKAGES = Pattern.compile("\\[packages: ([^\\]]+)]");
    private static final Pattern LICENCE_FILE = Pattern.compile("META-INF/[A-Za-z0-9./_-]+");

    @Test
    void theJarCarriesTheLicenceAndNoticeAndTheNoticeNamesWhatItBundles() throws IOException {
        Path root = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
        String notice = Files.readString(root.resolve("NOTICE"), StandardCharsets.UTF_8);
        check(notice.substring(notice.indexOf("snowid-agent.jar"), notice.indexOf("snowid-agent-iam.jar (")),
                System.getProperty("snowid.test.agentJar"), root, notice);
    }

    @Test
    void theIamJarCarriesTheLicenceAndNoticeAndTheNoticeNamesWhatItBundles() throws IOException {
        Path root = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();
        String notice = Files.readString(root.resolve("NOTICE"), StandardCharsets.UTF_8);
        // What the plain jar bundles, and what the IAM jar adds.
        check(notice.substring(notice.indexOf("snowid-agent.jar"), notice.indexOf("snowid-function.jar")),
                System.getProperty("snowid.test.agentIamJar"), root, notice);
    }

    private static void check(String section, String jarPath, Path root, String notice) throws IOException {
        List<String> packages = new ArrayList<>(List.of("dev/snowid/agent/"));
        Matcher listed = PACKAGES.matcher(section);
        while (listed.find()) {
            for (String name : listed.group(1).split(",")) {
                packages.add(name.strip().replace('.', '/') + "/");
            }
        }

        Path jar = Path.of(jarPath).toAbsolutePath();
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
            assertTrue(packages.size() >= 3, "packages listed in NOTICE for the agent: " + packages);

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
