package dev.snowid.dynalite;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
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
 * installs it, so that the local runner's jar runs from any directory. Only engine code the
 * runner installed or was told to use ever runs; in this order:
 * <ol>
 *   <li>{@value DynaliteSettings#DYNALITE_DIR}, or the system property {@value #DIR_PROPERTY}:
 *       that folder and no other (an error if dynalite is not installed there);</li>
 *   <li>in a build of the repository (the jar or the classes still in a module's {@code target}):
 *       the repository's {@code dynalite/} module, which the build filled with {@code npm ci};</li>
 *   <li>the per-user cache ({@link DynaliteCache}), installing the jar's pinned dynalite there
 *       with {@code npm ci} when it is not there yet.</li>
 * </ol>
 * Nothing is looked for above the working directory or beside a copied jar: a {@code dynalite/}
 * folder there may be another user's. Whichever folder is chosen must be this user's only, links
 * followed and the folders above it included ({@link TrustedFolder}), and hold exactly the
 * packages the jar's lockfile pins ({@link LockfileCheck}), or the runner refuses to start,
 * naming the folder; the engine starts from its real path.
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
            return trusted(dir, DynaliteSettings.DYNALITE_DIR + " (or -D" + DIR_PROPERTY + ")");
        }
        for (Path candidate : candidates()) {
            if (isInstalled(candidate)) {
                return trusted(candidate, "the repository's dynalite/ module (found from the runner's code)");
            }
        }
        DynaliteCache cache = new DynaliteCache(DynaliteSettings.cacheHome(env));
        try {
            return trusted(cache.install(npm, progress), "the per-user cache (" + DynaliteSettings.XDG_CACHE_HOME + ", else ~/.cache)");
        } catch (RuntimeException e) {
            throw new IllegalStateException("no dynalite found, and installing it failed: " + e.getMessage()
                    + ". The runner needs Node.js 18 or later with npm on the PATH; or install dynalite yourself with"
                    + " `npm install --prefix <folder> dynalite@" + DynaliteCache.pinnedVersion() + "` and set "
                    + DynaliteSettings.DYNALITE_DIR + "=<folder>", e);
        }
    }

    /** The folders looked at before the cache: the repository's dynalite/ module, when the code is a build of it. */
    static List<Path> candidates() {
        return besideTheCode().stream().filter(DynaliteInstall::isTheModule).toList();
    }

    /** The repository's dynalite/ module: its lockfile and its child script beside node_modules. */
    private static boolean isTheModule(Path dir) {
        return Files.isRegularFile(dir.resolve("install-if-stale.js")) && Files.isRegularFile(dir.resolve(Dynalite.CHILD_SCRIPT))
                && Files.isRegularFile(dir.resolve(DynaliteCache.PACKAGE_LOCK));
    }

    /**
     * The real path of {@code dir} (links resolved), if its engine code can only be this user's
     * and is what the lockfile pins: the engine starts from the path that was checked.
     *
     * @param origin what chose the folder, for the message (the setting to change)
     */
    static Path trusted(Path dir, String origin) {
        Path real;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("could not resolve " + dir + ", chosen by " + origin + ": " + e.getMessage(), e);
        }
        Optional<String> unsafe = TrustedFolder.problem(real);
        if (unsafe.isPresent()) {
            throw new IllegalStateException("refusing to run dynalite from " + dir + ", chosen by " + origin + ": " + unsafe.get()
                    + ". Another user could have put code there that would run as you. Use a folder that only you (or root) can"
                    + " write, inside folders only you or root can write (chmod go-w), or unset " + DynaliteSettings.DYNALITE_DIR
                    + " to let the runner install its own");
        }
        Optional<String> foreign = LockfileCheck.problem(real);
        if (foreign.isPresent()) {
            throw new IllegalStateException("refusing to run dynalite from " + dir + ", chosen by " + origin + ": it is not the pinned"
                    + " install (" + foreign.get() + "). Install it with `npm ci` from the jar's package-lock.json (dynalite "
                    + DynaliteCache.pinnedVersion() + "), or unset " + DynaliteSettings.DYNALITE_DIR + " to let the runner install its own");
        }
        return real;
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
        List<Path> beside = new ArrayList<>();
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
