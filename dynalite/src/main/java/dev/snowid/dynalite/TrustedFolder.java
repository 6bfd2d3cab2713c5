package dev.snowid.dynalite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Whether the engine's code in a folder can only have been written by the user running the
 * runner (or by root), so that no other local user can have put code there that would run as
 * this user. The rules are OpenSSH's for the files it trusts ({@code safe_path}), on the
 * folder's real path, links followed:
 * <ul>
 *   <li>the folder and every folder above it, up to {@code /}, are owned by this user or root
 *       and writable by no one else: not by others, and not by the group unless it is the user's
 *       own private group (named as the user, as on umask-002 systems);</li>
 *   <li>one exception above the folder, where OpenSSH is stricter and refuses: a sticky folder
 *       owned by root, such as {@code /tmp}. Others may add names there but never move or
 *       remove one of this user's, so none of them can swap the folder below it;</li>
 *   <li>every file, folder and link in the tree, by the same rule; a link's target wherever it
 *       points, by the same rules as the folder (a link out of the tree to a folder others can
 *       write is refused), and a link to nothing is refused.</li>
 * </ul>
 * The runner then starts the engine from the real path it checked, not from a name that a
 * link could later point elsewhere. The installed files are not compared with npm's integrity
 * hashes: those are of the packed tarballs, which are not kept; what the check makes sure of is
 * that only this user or root can have changed them since.
 */
final class TrustedFolder {

    private static final int GROUP_WRITE = 0020;
    private static final int OTHERS_WRITE = 0002;
    private static final int STICKY = 01000;

    private TrustedFolder() {
    }

    /** The first entry that fails, with why; empty when the folder can only be this user's or root's. */
    static Optional<String> problem(Path folder) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("unix")) {
            return Optional.empty(); // no POSIX owners and modes to check (Windows): the user's profile folder is theirs
        }
        Path real;
        try {
            real = folder.toRealPath();
        } catch (IOException e) {
            return Optional.of(folder + " cannot be resolved (" + e.getMessage() + ")");
        }
        try {
            return new Walk(System.getProperty("user.name")).place(real);
        } catch (UncheckedIOException e) {
            return Optional.of(folder + " cannot be read in full (" + e.getCause().getMessage() + ")");
        }
    }

    /** One check: what it saw already (a link can point back). */
    private static final class Walk {

        private final String me;
        private final Set<Path> placed = new HashSet<>();

        Walk(String me) {
            this.me = me;
        }

        /** {@code real} (a real path), the folders above it, and everything below it. */
        Optional<String> place(Path real) {
            if (!placed.add(real)) {
                return Optional.empty();
            }
            for (Path above = real.getParent(); above != null; above = above.getParent()) {
                Optional<String> problem = entry(above, true);
                if (problem.isPresent()) {
                    return problem.map(why -> why + " (a folder above " + real + ")");
                }
            }
            try (Stream<Path> tree = Files.walk(real)) {
                for (Iterator<Path> entries = tree.iterator(); entries.hasNext(); ) {
                    Path entry = entries.next();
                    Optional<String> problem = Files.isSymbolicLink(entry) ? link(entry, real) : entry(entry, false);
                    if (problem.isPresent()) {
                        return problem;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Optional.empty();
        }

        private Optional<String> link(Path link, Path tree) {
            Path target;
            try {
                target = link.toRealPath();
            } catch (NoSuchFileException e) {
                return Optional.of(link + " is a link to nothing (" + e.getFile() + " does not exist)");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            // Inside the tree the walk checks the target anyway; outside it, the target must pass as the folder did.
            return target.startsWith(tree) ? Optional.empty() : place(target).map(why -> why + ", where the link " + link + " points");
        }

        /** One file or folder (never a link: real paths only), by its owner and mode. */
        private Optional<String> entry(Path path, boolean above) {
            PosixFileAttributes attributes;
            Map<String, Object> unix;
            try {
                attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                unix = Files.readAttributes(path, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS); // the sticky bit and the owner's id
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String owner = attributes.owner().getName();
            String group = attributes.group().getName();
            int mode = (Integer) unix.get("mode");
            boolean root = (Integer) unix.get("uid") == 0;
            if (!root && !owner.equals(me)) {
                return Optional.of(path + " is owned by " + owner + ", not by " + me + " who runs the runner (nor by root)");
            }
            if (above && root && (mode & STICKY) != 0) {
                return Optional.empty(); // /tmp: others add names here, but cannot move or remove another user's
            }
            if ((mode & OTHERS_WRITE) != 0) {
                return Optional.of(path + " is writable by every user");
            }
            // A user private group (named as the user, umask 002 systems) holds only the user.
            if ((mode & GROUP_WRITE) != 0 && !group.equals(me)) {
                return Optional.of(path + " is writable by its group " + group);
            }
            return Optional.empty();
        }
    }
}
