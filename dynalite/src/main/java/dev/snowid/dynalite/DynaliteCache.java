package dev.snowid.dynalite;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The per-user install of the pinned dynalite: {@code <cache home>/snowid/dynalite/<lockfile hash>},
 * made with {@code npm ci} from the package.json and package-lock.json that travel inside the
 * function jar, so the jar runs without the repository. The lockfile pins every package and its
 * integrity hash; a jar with another pin installs beside, never over, an older one.
 *
 * <p>npm installs into a private staging folder that is renamed into place only once complete:
 * a half-finished install is never used, and two runners installing at once both end up with one
 * good folder.
 */
final class DynaliteCache {

    /** Where the pin lives on the classpath (copied there from the repository's dynalite/ folder by the build). */
    static final String RESOURCES = "/dev/snowid/dynalite/";
    static final String PACKAGE_JSON = "package.json";
    static final String PACKAGE_LOCK = "package-lock.json";
    private static final long INSTALL_TIMEOUT_MINUTES = 5;

    private final Path root;

    /** @param cacheHome e.g. {@code ~/.cache}; the install goes under {@code snowid/dynalite} in it */
    DynaliteCache(Path cacheHome) {
        this.root = cacheHome.resolve("snowid").resolve("dynalite");
    }

    /** The folder this jar's pin installs into (it may not exist yet). */
    Path folder() {
        return root.resolve(pinHash());
    }

    /** The installed folder, if a complete install is there. */
    Optional<Path> installed() {
        Path folder = folder();
        return DynaliteInstall.isInstalled(folder) ? Optional.of(folder) : Optional.empty();
    }

    /**
     * Installs the pinned dynalite with {@code npm ci} unless it is installed already.
     *
     * @param npm      the npm command, e.g. {@code npm}
     * @param progress where to say what happens (an install takes seconds and needs the npm registry
     *                 or npm's own cache)
     */
    Path install(String npm, PrintStream progress) {
        Optional<Path> done = installed();
        if (done.isPresent()) {
            return done.get();
        }
        Path target = folder();
        try (TemporaryFolder staging = TemporaryFolder.in(root, ".installing-")) {
            copyResource(PACKAGE_JSON, staging.path());
            copyResource(PACKAGE_LOCK, staging.path());
            progress.println("snowid local: installing dynalite " + pinnedVersion() + " into " + target + " (once, with npm ci)");
            progress.flush();
            runNpmCi(npm, staging.path());
            if (!DynaliteInstall.isInstalled(staging.path())) {
                throw new IllegalStateException("npm ci finished but left no node_modules/dynalite/cli.js in " + staging);
            }
            try {
                Files.move(staging.path(), target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException anotherRunnerWasFaster) {
                // Its folder is as good as ours; ours is deleted with the staging folder.
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not install dynalite into " + target + ": " + e.getMessage(), e);
        }
        return installed().orElseThrow(() -> new IllegalStateException("no complete dynalite in " + target + " after installing"));
    }

    /** The dynalite version the jar pins, e.g. {@code 4.0.0}. */
    static String pinnedVersion() {
        try (InputStream in = resource(PACKAGE_JSON)) {
            Matcher version = Pattern.compile("\"dynalite\"\\s*:\\s*\"([^\"]+)\"")
                    .matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return version.find() ? version.group(1) : "(unknown version)";
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the pinned package.json", e);
        }
    }

    private void runNpmCi(String npm, Path staging) {
        List<String> command = List.of(npm, "ci", "--no-audit", "--no-fund", "--prefer-offline");
        Process process;
        try {
            process = new ProcessBuilder(command).directory(staging.toFile()).redirectErrorStream(true)
                    .redirectOutput(staging.resolve("npm-ci.log").toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException("could not run `" + npm + "` (" + e.getMessage() + ")", e);
        }
        try {
            if (!process.waitFor(INSTALL_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("npm ci did not finish within " + INSTALL_TIMEOUT_MINUTES + " minutes");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing dynalite", e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("npm ci failed with status " + process.exitValue() + ": " + tail(staging.resolve("npm-ci.log")));
        }
    }

    static InputStream resource(String name) {
        InputStream in = DynaliteCache.class.getResourceAsStream(RESOURCES + name);
        if (in == null) {
            throw new IllegalStateException("the jar has no " + RESOURCES + name + ": it was built without the dynalite/ folder");
        }
        return in;
    }

    private static void copyResource(String name, Path folder) throws IOException {
        try (InputStream in = resource(name)) {
            Files.copy(in, folder.resolve(name));
        }
    }

    /** A short hash of the lockfile: a new pin gets a new folder. */
    static String pinHash() {
        try (InputStream in = resource(PACKAGE_LOCK)) {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(in.readAllBytes());
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the pinned package-lock.json", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log).strip();
            return text.length() > 2000 ? "..." + text.substring(text.length() - 2000) : text;
        } catch (IOException e) {
            return "(no output)";
        }
    }
}
