package dev.snowid.dynalite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * A secret drawn for one run of an engine: {@code dynalite-child.js}, started with it, answers
 * only requests whose {@value #HEADER} header holds it (403 before dynalite reads anything
 * else). It lives in a file only this user can read, in the engine's own folder, so that the
 * engine reads it without it ever showing on a command line; it is never printed.
 */
public final class EngineCredential {

    /** The header every request to the engine must carry. */
    public static final String HEADER = "x-snowid-engine-credential";
    /** Its file's name in the engine's folder. */
    public static final String FILE = "engine-credential";

    private final Path file;
    private final String value;

    private EngineCredential(Path file, String value) {
        this.file = file;
        this.value = value;
    }

    /** Draws a new secret into {@code folder}/{@value #FILE}, readable by this user only. */
    public static EngineCredential create(Path folder) {
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        String value = HexFormat.of().formatHex(random);
        Path file = folder.resolve(FILE);
        try {
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(file, value, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the engine's credential into " + folder + ": " + e.getMessage(), e);
        }
        return new EngineCredential(file, value);
    }

    /** The secret of the engine whose folder is {@code folder} (the runner's process, or a developer at its side). */
    public static EngineCredential read(Path folder) {
        return readFile(folder.resolve(FILE));
    }

    /** The secret in {@code file}, as {@link #create} wrote it (a local claim registry's, given to the runners). */
    public static EngineCredential readFile(Path file) {
        try {
            return new EngineCredential(file, Files.readString(file, StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read the engine's credential " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    /** The secret itself: for the header, never for output. */
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return "the engine credential in " + file;
    }
}
