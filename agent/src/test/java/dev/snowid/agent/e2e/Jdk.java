package dev.snowid.agent.e2e;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A JDK the end-to-end tests start child JVMs with. Found in {@code SNOWID_TEST_JDKS} (java
 * homes separated by {@code :}) when set, else the test's own JDK plus every JDK under
 * /usr/lib/jvm.
 */
public final class Jdk {

    /** Major versions the agent must be shown to work on: the default JDK and the newest LTS. */
    static final int[] REQUIRED = {17, 25};

    private final Path home;
    private final String version;

    private Jdk(Path home, String version) {
        this.home = home;
        this.version = version;
    }

    public String java() {
        return home.resolve("bin").resolve("java").toString();
    }

    /** The JDK's {@code jcmd}, which attaches agents to running JVMs. */
    public String jcmd() {
        return home.resolve("bin").resolve("jcmd").toString();
    }

    public int major() {
        String[] parts = version.split("[.+-]");
        return Integer.parseInt(parts[0].equals("1") ? parts[1] : parts[0]);
    }

    @Override
    public String toString() {
        return "JDK " + version + " (" + home + ")";
    }

    public static List<Jdk> all() {
        String configured = System.getenv("SNOWID_TEST_JDKS");
        List<Path> candidates = new ArrayList<>();
        if (configured != null && !configured.trim().isEmpty()) {
            for (String home : configured.split(File.pathSeparator)) {
                candidates.add(Paths.get(home.trim()));
            }
        } else {
            candidates.add(Paths.get(System.getProperty("java.home")));
            Path jvms = Paths.get("/usr/lib/jvm");
            if (Files.isDirectory(jvms)) {
                try (Stream<Path> homes = Files.list(jvms)) {
                    homes.sorted().forEach(candidates::add);
                } catch (IOException e) {
                    throw new IllegalStateException("cannot list " + jvms, e);
                }
            }
        }
        Map<Path, Jdk> found = new LinkedHashMap<>();
        for (Path candidate : candidates) {
            Jdk jdk = at(candidate);
            if (jdk != null) {
                found.putIfAbsent(jdk.home, jdk);
            }
        }
        return new ArrayList<>(found.values());
    }

    private static Jdk at(Path home) {
        try {
            Path real = home.toRealPath();
            Path release = real.resolve("release");
            if (!Files.isExecutable(real.resolve("bin").resolve("java")) || !Files.isRegularFile(release)) {
                return null;
            }
            for (String line : Files.readAllLines(release)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    return new Jdk(real, line.substring("JAVA_VERSION=".length()).replace("\"", "").trim());
                }
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
