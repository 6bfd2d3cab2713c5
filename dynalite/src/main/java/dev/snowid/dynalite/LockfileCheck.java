package dev.snowid.dynalite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether an installed engine is the one the jar's lockfile pins. {@code npm ci} checked each
 * package's tarball against the lockfile's sha512 {@code integrity} when it installed them, and
 * recorded what it installed, with those hashes, in {@code node_modules/.package-lock.json}.
 * So at each start the record must list exactly the lockfile's packages with the same version
 * and integrity, and each package's own {@code package.json} the same version: a folder npm
 * did not fill from this lockfile (another version, a hand-made {@code cli.js}) is refused.
 * Files changed after the install are kept out by {@link TrustedFolder}: nobody but the user
 * (or root) can write there.
 */
final class LockfileCheck {

    /** A package entry of a lockfile (v2/v3): its path, then its version and integrity before any nested object. */
    private static final Pattern PACKAGE = Pattern.compile(
            "\"(node_modules/[^\"]+)\"\\s*:\\s*\\{[^{}]*?\"version\"\\s*:\\s*\"([^\"]+)\"[^{}]*?\"integrity\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"");

    private LockfileCheck() {
    }

    /** What differs from the jar's pin; empty when {@code folder} holds exactly the pinned packages. */
    static Optional<String> problem(Path folder) {
        Map<String, String> pinned;
        try (InputStream in = DynaliteCache.resource(DynaliteCache.PACKAGE_LOCK)) {
            pinned = packages(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the pinned package-lock.json", e);
        }
        Path record = folder.resolve("node_modules").resolve(".package-lock.json");
        Map<String, String> installed;
        try {
            installed = packages(Files.readString(record, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return Optional.of(record + " cannot be read: it was not installed by npm ci from the pinned lockfile");
        }
        if (pinned.isEmpty() || !pinned.containsKey("node_modules/dynalite")) {
            throw new IllegalStateException("the jar's package-lock.json pins no dynalite: it was built from a broken dynalite/ folder");
        }
        for (Map.Entry<String, String> pin : pinned.entrySet()) {
            String got = installed.get(pin.getKey());
            if (!pin.getValue().equals(got)) {
                return Optional.of(pin.getKey() + " is " + (got == null ? "not in " + record : got) + ", the lockfile pins " + pin.getValue());
            }
            String version = pin.getValue().substring(0, pin.getValue().indexOf(' '));
            Path packageJson = folder.resolve(pin.getKey()).resolve("package.json");
            try {
                Matcher found = VERSION.matcher(Files.readString(packageJson, StandardCharsets.UTF_8));
                if (!found.find() || !found.group(1).equals(version)) {
                    return Optional.of(packageJson + " is not version " + version + " as the lockfile pins");
                }
            } catch (IOException e) {
                return Optional.of(packageJson + " cannot be read (" + e.getMessage() + ")");
            }
        }
        if (installed.size() != pinned.size()) {
            return Optional.of(record + " lists " + installed.size() + " packages, the lockfile " + pinned.size());
        }
        return Optional.empty();
    }

    /** Package path → "version integrity". */
    static Map<String, String> packages(String lockfile) {
        Map<String, String> packages = new LinkedHashMap<>();
        Matcher entry = PACKAGE.matcher(lockfile);
        while (entry.find()) {
            packages.put(entry.group(1), entry.group(2) + " " + entry.group(3));
        }
        return packages;
    }
}
