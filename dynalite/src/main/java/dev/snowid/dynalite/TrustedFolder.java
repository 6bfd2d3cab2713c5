package dev.snowid.dynalite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Whether the engine's code in a folder can only have been written by the user running the
 * runner: the folder, and everything in it, owned by that user and writable by nobody else
 * (group-writable only when the group is the user's own private group).
 * Otherwise another local user could put code there that runs as this user. Symbolic links
 * are not followed (npm's {@code .bin} links point inside the tree, whose files are checked).
 */
final class TrustedFolder {

    private TrustedFolder() {
    }

    /** The first entry that fails, with why; empty when the whole tree is this user's only. */
    static Optional<String> problem(Path folder) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return Optional.empty(); // no POSIX owners and modes to check (Windows): the user's profile folder is theirs
        }
        String me = System.getProperty("user.name");
        try (Stream<Path> tree = Files.walk(folder)) {
            return tree.map(entry -> problem(entry, me)).flatMap(Optional::stream).findFirst();
        } catch (IOException | UncheckedIOException e) {
            return Optional.of("it cannot be read in full (" + e.getMessage() + ")");
        }
    }

    private static Optional<String> problem(Path entry, String me) {
        PosixFileAttributes attributes;
        try {
            attributes = Files.readAttributes(entry, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (attributes.isSymbolicLink()) {
            return Optional.empty();
        }
        if (!attributes.owner().getName().equals(me)) {
            return Optional.of(entry + " is owned by " + attributes.owner().getName() + ", not by " + me + " who runs the runner");
        }
        Set<PosixFilePermission> mode = attributes.permissions();
        if (mode.contains(PosixFilePermission.OTHERS_WRITE)) {
            return Optional.of(entry + " is writable by every user");
        }
        // A user private group (named as the user, umask 002 systems) holds only the user.
        if (mode.contains(PosixFilePermission.GROUP_WRITE) && !attributes.group().getName().equals(me)) {
            return Optional.of(entry + " is writable by its group " + attributes.group().getName());
        }
        return Optional.empty();
    }
}
