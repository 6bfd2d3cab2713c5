package dev.snowid.dynalite;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the folder dynalite is installed in (the one holding {@code node_modules/dynalite}), or
 * installs it, so that the local runner's jar runs from any directory. In this order, the first that
 * has dynalite installed wins:
 * <ol>
 *   <li>{@value DynaliteSettings#DYNALITE_DIR}, or the system property {@value #DIR_PROPERTY}:
 *       that folder and no other (an error if dynalite is not installed there);</li>
 *   <li>beside the code: a {@code dynalite/} folder next to the jar, or the repository's
 *       {@code dynalite/} when the jar (or the classes) are still in a module's {@code target};</li>
 *   <li>above the working directory: the nearest {@code dynalite/};</li>
 *   <li>the per-user cache ({@link DynaliteCache}), installing the jar's pinned dynalite there
 *       with {@code npm ci} when it is not there yet.</li>
 * </ol>
 */
public final class DynaliteInstall {

    /** System property naming the folder that holds dynalite's {@code package.json} and {@code node_modules}. */
    public static final String DIR_PROPERTY = "snowid.dynalite.dir";

    private DynaliteInstall() {
    }

    /** The installed folder, found or installed as the class comment says; messages go to {@code progress}. */
    public static Path find(Map<String, String> env, PrintStream progress) {
        return find(env, progress, "npm");
    }

    static Path find(Map<String, String> env, PrintStream progress, String npm) {
        Optional<Path> configured = configured(env);
        if (configured.isPresent()) {
            Path dir = configured.get();
            if (!isInstalled(dir)) {
                throw new IllegalStateException(DynaliteSettings.DYNALITE_DIR + " (or -D" + DIR_PROPERTY + ") is " + dir
                        + ", which has no node_modules/dynalite/cli.js: install it there with `npm install --prefix " + dir
                        + " dynalite@" + DynaliteCache.pinnedVersion() + "`, or unset it to let the runner install its own");
            }
            return dir;
        }
        for (Path candidate : candidates()) {
            if (isInstalled(candidate)) {
                return candidate;
            }
        }
        DynaliteCache cache = new DynaliteCache(DynaliteSettings.cacheHome(env));
        try {
            return cache.install(npm, progress);
        } catch (RuntimeException e) {
            throw new IllegalStateException("no dynalite found, and installing it failed: " + e.getMessage()
                    + ". The runner needs Node.js 18 or later with npm on the PATH; or install dynalite yourself with"
                    + " `npm install --prefix <folder> dynalite@" + DynaliteCache.pinnedVersion() + "` and set "
                    + DynaliteSettings.DYNALITE_DIR + "=<folder>", e);
        }
    }

    /** The folders looked at before the cache: beside the code, then above the working directory. */
    static List<Path> candidates() {
        List<Path> candidates = new ArrayList<>(besideTheCode());
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            candidates.add(dir.resolve("dynalite"));
        }
        return candidates;
    }

    /** True when {@code dir} holds a dynalite that can be started. */
    static boolean isInstalled(Path dir) {
        Path packageJson = dir.resolve("package.json");
        try {
            return Files.isRegularFile(dir.resolve("node_modules").resolve("dynalite").resolve("cli.js"))
                    && Files.isRegularFile(packageJson)
                    && Files.readString(packageJson, StandardCharsets.UTF_8).contains("\"dynalite\"");
        } catch (IOException e) {
            return false;
        }
    }

    private static Optional<Path> configured(Map<String, String> env) {
        Optional<Path> fromEnv = DynaliteSettings.dynaliteDir(env);
        if (fromEnv.isPresent()) {
            return fromEnv;
        }
        String property = System.getProperty(DIR_PROPERTY);
        return property == null || property.isBlank() ? Optional.empty() : Optional.of(Paths.get(property));
    }

    private static List<Path> besideTheCode() {
        Path code;
        try {
            code = Paths.get(DynaliteInstall.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException unknown) {
            return List.of();
        }
        // The jar's folder, or for target/classes the folder holding it.
        Path home = code.getParent();
        if (home == null) {
            return List.of();
        }
        List<Path> beside = new ArrayList<>(List.of(home.resolve("dynalite")));
        Path module = home.getParent();
        if (home.getFileName() != null && home.getFileName().toString().equals("target") && module != null) {
            beside.add(module); // dynalite/target/classes -> dynalite (this module holds the pin)
            if (module.getParent() != null) {
                beside.add(module.resolveSibling("dynalite")); // local/target/snowid-local.jar -> dynalite
            }
        }
        return beside;
    }
}
