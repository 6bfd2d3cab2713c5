package dev.snowid.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's properties file is believed only when no other user can change it, or a directory or
 * link on its way. Tests run as root (here and in CI): {@code nobody} (uid 65534) plays the other user.
 */
class ConfigFileTrustTest {

    private static final int NOBODY = 65534;

    @TempDir
    Path dir;
    private Path file;

    @BeforeEach
    void aFileOnlyItsOwnerMayWrite() throws IOException {
        file = dir.resolve("snowid.properties");
        Files.write(file, Arrays.asList("snowid.node=7:13", "snowid.targets=a.B#c"), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
    }

    @Test
    void aFileOfThisUserOrRootThatNoOneElseMayWriteIsRead() {
        assertEquals("7:13", read(file).node().toString());
    }

    /** The finding: another user's file, mode 666, that could name any lease URL. */
    @Test
    void anotherUsersFileIsRefusedNamingItAndTheFix() throws IOException {
        chown(file, NOBODY);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertEquals("[config_file_untrusted] snowid.config='" + file + "' is refused: " + file + " (the file) belongs to nobody (uid 65534),"
                + " who is neither root nor this process's user root; whoever may change the file decides where the lease secret goes,"
                + " so the file, every directory on its path and every link to it must belong to this user or root, and be writable by"
                + " no one else (a directory with the sticky bit, like /tmp, excepted); fix: chown root '" + file + "'",
                refusal(file));
    }

    @Test
    void aFileOthersMayWriteIsRefused() throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
        assertTrue(refusal(file).contains(file + " (the file) is writable by its group (mode 0664)") && refusal(file).endsWith(
                "fix: chmod go-w '" + file + "'"), refusal(file));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--rw-"));
        assertTrue(refusal(file).contains("is writable by every user (mode 0646)"), refusal(file));
    }

    /** Whoever may write a directory may swap the file for one of their own. The sticky bit is the exception (see the layout below). */
    @Test
    void aDirectoryOnThePathThatOthersMayWriteOrOwnIsRefused() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("conf"));
        Path inner = Files.move(file, sub.resolve("snowid.properties"));
        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertTrue(refusal(inner).contains(sub + " (a directory on its path) is writable by its group and every user (mode 0777)"),
                refusal(inner));

        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwxr-xr-x"));
        chown(sub, NOBODY);
        assertTrue(refusal(inner).contains(sub + " (a directory on its path) belongs to nobody (uid 65534)"), refusal(inner));

        chown(sub, 0);
        Files.setAttribute(sub, "unix:mode", 01777);
        assertEquals("7:13", read(inner).node().toString(), "a sticky directory: others cannot rename or replace what is ours");
    }

    /** A link is checked by its owner (its mode means nothing), and so is every name it leads through, '..' included. */
    @Test
    void aLinkOfAnotherUserOrToAnUntrustedPlaceIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link.properties"), file.getFileName());
        assertEquals("7:13", read(link).node().toString());
        chown(link, NOBODY);
        assertTrue(refusal(link).contains(link + " (a symbolic link) belongs to nobody") && refusal(link).endsWith(
                "fix: chown -h root '" + link + "'"), refusal(link));

        Path absolute = Files.createSymbolicLink(dir.resolve("absolute.properties"), file);
        assertEquals("7:13", read(absolute).node().toString());
        Path loop = Files.createSymbolicLink(dir.resolve("loop.properties"), Paths.get("loop.properties"));
        assertTrue(refusal(loop).contains(loop + " goes through more than 40 symbolic links"), refusal(loop));

        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path throughOpen = Files.createSymbolicLink(dir.resolve("through.properties"), Paths.get("open/../snowid.properties"));
        assertTrue(refusal(throughOpen).contains(open + " (a directory on its path) is writable"), refusal(throughOpen));
    }

    /**
     * A Kubernetes ConfigMap or Secret volume: a sticky mount point, root-owned links
     * {@code snowid.properties -> ..data/snowid.properties}, {@code ..data -> ..<timestamp>}, files 0644.
     */
    @Test
    void aKubernetesConfigMapMountIsRead() throws IOException {
        Path mount = Files.createDirectory(dir.resolve("snowid"));
        Files.setAttribute(mount, "unix:mode", 01777);
        Path version = Files.createDirectory(mount.resolve("..2024_01_01_00_00_00.123"));
        Files.setPosixFilePermissions(version, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.move(file, version.resolve("snowid.properties"));
        Files.setPosixFilePermissions(version.resolve("snowid.properties"), PosixFilePermissions.fromString("rw-r--r--"));
        Files.createSymbolicLink(mount.resolve("..data"), version.getFileName());
        Path mounted = Files.createSymbolicLink(mount.resolve("snowid.properties"), Paths.get("..data/snowid.properties"));

        assertEquals("7:13", read(mounted).node().toString());

        chown(version.resolve("snowid.properties"), NOBODY); // the same layout, but one name another user's
        assertTrue(refusal(mounted).contains(version.resolve("snowid.properties") + " (the file) belongs to nobody"), refusal(mounted));
    }

    private static void chown(Path path, int uid) throws IOException {
        Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    }

    private static AgentSettings read(Path config) {
        Properties properties = new Properties();
        properties.setProperty("snowid.config", config.toString());
        return AgentSettings.read(properties, new HashMap<String, String>());
    }

    private static String refusal(Path config) {
        return assertThrows(AgentConfigurationException.class, () -> read(config)).getMessage();
    }
}
