package dev.snowid.agent.config;

import dev.snowid.internal.WarningCode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Whether the agent may believe its properties file: the file names the lease URL, so whoever can
 * change it decides where the bearer secret goes. The file, every directory on its path and every
 * symbolic link met on the way (resolved one step at a time, as the kernel does) must belong to
 * this process's user or to root, and no one else may write the file or a directory. A directory
 * others may write counts only with the sticky bit (/tmp, a Kubernetes volume's mount point):
 * others can then add names but not rename or replace ours, and every name the walk goes through
 * is checked itself. A link's own mode means nothing on Linux; its owner does. A file system that
 * cannot say who may write (no POSIX permissions) is refused: the settings then go in variables
 * or system properties.
 */
final class ConfigFileTrust {

    /** As Linux's limit on links in one lookup (ELOOP). */
    private static final int MAX_LINKS = 40;
    private static final int WRITABLE_BY_GROUP_OR_OTHERS = 0022;
    private static final int STICKY = 01000;

    private final String setting;
    private final long myUid;
    private final String myName = System.getProperty("user.name");

    private ConfigFileTrust(String setting) {
        this.setting = setting;
        this.myUid = currentUid();
    }

    /**
     * @param setting where the path came from, as the refusal names it
     * @throws AgentConfigurationException ({@code config_file_untrusted}) naming what is wrong and the command that fixes it;
     *                                     nothing for a path that does not exist (reading it says so)
     */
    static void require(Path file, String setting) {
        new ConfigFileTrust(setting).walk(file.toAbsolutePath());
    }

    private void walk(Path absolute) {
        if (!absolute.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            throw refused(absolute + " is on a file system without POSIX permissions, where the agent cannot tell who may change it",
                    "set the agent's settings as environment variables (SNOWID_*) or system properties instead");
        }
        Deque<String> names = new ArrayDeque<>();
        for (Path name : absolute) {
            names.add(name.toString());
        }
        Path root = absolute.getRoot();
        Path at = root;
        Entry top = Entry.of(root);
        if (top == null) {
            return;
        }
        requireOwner(top);
        requireWritableByOwnerOnly(top, false);
        int links = 0;
        while (!names.isEmpty()) {
            String name = names.pop();
            if (name.equals(".") || name.isEmpty()) {
                continue;
            }
            if (name.equals("..")) { // `at` is a real directory by now, so its parent is the one the kernel would take
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            Path next = at.resolve(name);
            Entry entry = Entry.of(next);
            if (entry == null) {
                return;
            }
            requireOwner(entry);
            if (entry.link) {
                if (++links > MAX_LINKS) {
                    throw refused(absolute + " goes through more than " + MAX_LINKS + " symbolic links", "give its real path");
                }
                Path target = readLink(next);
                Deque<String> rest = new ArrayDeque<>();
                for (Path part : target) {
                    rest.add(part.toString());
                }
                while (!rest.isEmpty()) {
                    names.push(rest.removeLast());
                }
                if (target.isAbsolute()) {
                    at = root;
                }
                continue;
            }
            requireWritableByOwnerOnly(entry, names.isEmpty());
            at = next;
        }
    }

    private void requireOwner(Entry entry) {
        boolean trusted = entry.uid >= 0 ? entry.uid == 0 || entry.uid == myUid
                : entry.owner.equals("root") || entry.owner.equals(myName);
        if (!trusted) {
            throw refused(entry.path + " (" + entry.kind() + ") belongs to " + entry.owner
                    + (entry.uid >= 0 ? " (uid " + entry.uid + ")" : "")
                    + ", who is neither root nor this process's user " + myName,
                    "chown " + (entry.link ? "-h " : "") + (asRoot() ? "root" : myName) + " '" + entry.path + "'"
                            + (asRoot() ? "" : " (or root)"));
        }
    }

    private boolean asRoot() {
        return myUid == 0 || myUid < 0 && "root".equals(myName);
    }

    private void requireWritableByOwnerOnly(Entry entry, boolean file) {
        int writable = entry.mode & WRITABLE_BY_GROUP_OR_OTHERS;
        if (writable == 0 || (!file && entry.directory && (entry.mode & STICKY) != 0)) {
            return;
        }
        throw refused(entry.path + " (" + entry.kind() + ") is writable by " + ((writable & 0020) != 0 ? "its group" : "")
                + (writable == WRITABLE_BY_GROUP_OR_OTHERS ? " and " : "") + ((writable & 0002) != 0 ? "every user" : "")
                + " (mode " + String.format(Locale.ROOT, "%04o", entry.mode & 07777) + ")",
                "chmod go-w '" + entry.path + "'");
    }

    private AgentConfigurationException refused(String why, String fix) {
        return new AgentConfigurationException(WarningCode.CONFIG_FILE_UNTRUSTED.tag(setting + " is refused: " + why
                + "; whoever may change the file decides where the lease secret goes, so the file, every directory on its path and"
                + " every link to it must belong to this user or root, and be writable by no one else (a directory with the sticky"
                + " bit, like /tmp, excepted); fix: " + fix));
    }

    private Path readLink(Path link) {
        try {
            return Files.readSymbolicLink(link);
        } catch (IOException e) {
            throw refused("its link " + link + " cannot be read (" + e.getMessage() + ")", "give its real path");
        }
    }

    /** This process's uid; -1 where the JDK cannot say (the owner's name is compared then). */
    private static long currentUid() {
        try {
            Class<?> unix = Class.forName("com.sun.security.auth.module.UnixSystem");
            return ((Number) unix.getMethod("getUid").invoke(unix.getConstructor().newInstance())).longValue();
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return -1;
        }
    }

    /** One name on the path, as the kernel sees it before following it. */
    private static final class Entry {
        final Path path;
        final boolean link;
        final boolean directory;
        final String owner;
        /** -1 when the file system gives no uid. */
        final long uid;
        /** The permission bits with the sticky bit; without the unix view, the sticky bit is taken as absent. */
        final int mode;

        private Entry(Path path, PosixFileAttributes attributes, long uid, int mode) {
            this.path = path;
            this.link = attributes.isSymbolicLink();
            this.directory = attributes.isDirectory();
            this.owner = attributes.owner().getName();
            this.uid = uid;
            this.mode = mode;
        }

        /** Null when {@code path} does not exist. */
        static Entry of(Path path) {
            PosixFileAttributes attributes;
            try {
                attributes = Files.readAttributes(path, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException | NotDirectoryException e) {
                return null; // reading the file says what is missing
            } catch (IOException | UnsupportedOperationException e) {
                throw new AgentConfigurationException(WarningCode.CONFIG_FILE_UNTRUSTED.tag("cannot tell who may change " + path
                        + " (" + e.getMessage() + "); set the agent's settings as environment variables (SNOWID_*) or system properties"));
            }
            long uid = -1;
            int mode = modeOf(attributes);
            try {
                uid = ((Number) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue();
                mode = ((Number) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue();
            } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
                // no unix view: the owner's name and the POSIX bits, without the sticky bit (the stricter reading)
            }
            return new Entry(path, attributes, uid, mode);
        }

        private static int modeOf(PosixFileAttributes attributes) {
            int mode = 0;
            for (java.nio.file.attribute.PosixFilePermission permission : attributes.permissions()) {
                mode |= 0400 >> permission.ordinal();
            }
            return mode;
        }

        String kind() {
            return link ? "a symbolic link" : directory ? "a directory on its path" : "the file";
        }
    }
}
