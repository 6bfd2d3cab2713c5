package dev.snowid.dynalite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A folder that is deleted with everything in it when closed. */
public final class TemporaryFolder implements AutoCloseable {

    private final Path path;

    private TemporaryFolder(Path path) {
        this.path = path;
    }

    /** A new folder in the system's temporary folder, e.g. {@code /tmp/snowid-local-123}. */
    public static TemporaryFolder create(String prefix) {
        try {
            return new TemporaryFolder(Files.createTempDirectory(prefix));
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a temporary folder: " + e.getMessage(), e);
        }
    }

    /** A new folder inside {@code parent}, which is created if needed. */
    public static TemporaryFolder in(Path parent, String prefix) {
        try {
            Files.createDirectories(parent);
            return new TemporaryFolder(Files.createTempDirectory(parent, prefix));
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a folder in " + parent + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    /** Deletes the folder and its contents; what cannot be deleted is left (best effort). */
    @Override
    public void close() {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(path)) {
            paths.sorted(Comparator.reverseOrder()).forEach(TemporaryFolder::deleteQuietly);
        } catch (IOException | UncheckedIOException alreadyGoing) {
            // Another process (dynalite's child script when orphaned) may be deleting it too.
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // Left behind in a temporary folder; the system cleans those.
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
