package dev.snowid.dynalite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DynaliteInstallTest {

    @Test
    void aConfiguredFolderWithoutDynaliteIsNamedWithTheCommandThatInstallsIt(@TempDir Path empty) {
        IllegalStateException wrong = assertThrows(IllegalStateException.class, () -> DynaliteInstall.find(
                Map.of(DynaliteSettings.DYNALITE_DIR, empty.toString()), System.out, "no-such-npm-command"));

        assertTrue(wrong.getMessage().startsWith(DynaliteSettings.DYNALITE_DIR), wrong.getMessage());
        assertTrue(wrong.getMessage().contains("npm install --prefix " + empty + " dynalite@4.0.0"), wrong.getMessage());
    }

    @Test
    void aConfiguredFolderWithDynaliteIsUsedAsIs() {
        Path repositoryCopy = DynaliteInstall.find(Map.of(), System.out, "no-such-npm-command");

        assertEquals(repositoryCopy, DynaliteInstall.find(
                Map.of(DynaliteSettings.DYNALITE_DIR, repositoryCopy.toString()), System.out, "no-such-npm-command"));
    }

    @Test
    void theRepositoryCopyIsFoundBesideTheCodeFirst() {
        // The classes are in dynalite/target/classes: the repository's dynalite/ comes before any working-directory guess.
        Path found = DynaliteInstall.find(Map.of(), System.out, "no-such-npm-command");
        assertEquals(DynaliteInstall.candidates().stream().filter(DynaliteInstall::isInstalled).findFirst().orElseThrow(), found);
        assertTrue(found.endsWith(Path.of("dynalite")) && Files.isRegularFile(found.resolve("install-if-stale.js")), found.toString());
        assertTrue(DynaliteInstall.candidates().indexOf(found) <= 1, DynaliteInstall.candidates().toString());
    }

    @Test
    void aFolderWithAPackageJsonButNoNodeModulesIsNotAnInstall(@TempDir Path folder) throws IOException {
        Files.writeString(folder.resolve("package.json"), "{\"dependencies\":{\"dynalite\":\"4.0.0\"}}");
        assertFalse(DynaliteInstall.isInstalled(folder));
    }

    @Test
    void nothingAboveTheWorkingDirectoryIsACandidate() {
        Path cwd = Path.of("").toAbsolutePath();
        for (Path candidate : DynaliteInstall.candidates()) {
            assertFalse(cwd.startsWith(candidate.getParent()) && candidate.endsWith("dynalite") && !Files.isRegularFile(
                    candidate.resolve("install-if-stale.js")), "a guessed folder above the working directory: " + candidate);
            assertTrue(Files.isRegularFile(candidate.resolve("install-if-stale.js")), "only the repository's module: " + candidate);
        }
    }

    @Test
    void aConfiguredFolderOthersCanWriteIsRefusedNamingTheFolderAndTheSetting(@TempDir Path temp) throws IOException {
        Path copy = copyOfTheRepositoryInstall(temp.resolve("engine"));
        assertEquals(copy, DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"),
                "the copy itself is a sound install");
        Path cli = copy.resolve("node_modules/dynalite/cli.js");
        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rw-rw-rw-"));

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"));
        assertTrue(refused.getMessage().contains(cli + " is writable by every user"), refused.getMessage());
        assertTrue(refused.getMessage().contains(DynaliteSettings.DYNALITE_DIR), refused.getMessage());

        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rw-r--r--"));
        // Group-writable is refused unless the group is the user's own private group (named as the user).
        Path modules = copy.resolve("node_modules");
        Files.setPosixFilePermissions(modules, PosixFilePermissions.fromString("rwxrwxr-x"));
        Files.getFileAttributeView(modules, PosixFileAttributeView.class).setGroup(
                modules.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByGroupName("nogroup"));
        refused = assertThrows(IllegalStateException.class,
                () -> DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"));
        assertTrue(refused.getMessage().contains(modules + " is writable by its group nogroup"), refused.getMessage());
    }

    @Test
    void aFolderOwnedByAnotherUserIsRefused(@TempDir Path temp) throws IOException {
        Path copy = copyOfTheRepositoryInstall(temp.resolve("engine"));
        UserPrincipal nobody = copy.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Path index = copy.resolve("node_modules/dynalite/index.js");
        Files.setOwner(index, nobody); // the test runs as root in CI containers; elsewhere chown is refused and the test fails loudly

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"));
        assertTrue(refused.getMessage().contains(index + " is owned by nobody"), refused.getMessage());
    }

    /** The folder named through a link is checked where it really is: a link to a copy others can write is refused. */
    @Test
    void aLinkedFolderIsCheckedWhereItPoints(@TempDir Path temp) throws IOException {
        Path copy = copyOfTheRepositoryInstall(temp.resolve("engine"));
        Path link = Files.createSymbolicLink(temp.resolve("link"), copy);
        assertEquals(copy.toRealPath(), DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, link.toString()), System.out, "no-npm"),
                "a sound install through a link: its real path is what runs");

        Path planted = copy.resolve("node_modules/dynalite/cli.js");
        Files.writeString(planted, "require('fs').writeFileSync('/tmp/owned', 'x')");
        Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefused(link, copy + " is writable by every user");
    }

    @Test
    void aLinkInTheTreeIsCheckedWhereItPointsAndALinkToNothingIsRefused(@TempDir Path temp) throws IOException {
        Path copy = copyOfTheRepositoryInstall(temp.resolve("engine"));
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Path planted = Files.writeString(outside.resolve("cli.js"), "require('fs').writeFileSync('/tmp/owned', 'x')");
        Path cli = copy.resolve("node_modules/dynalite/cli.js");
        Files.delete(cli);
        Files.createSymbolicLink(cli, planted);
        assertEquals(copy, DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"),
                "a link out of the tree to a file only this user can write");

        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertRefused(copy, planted + " is writable by every user, where the link "); // cli.js, or .bin/dynalite through it

        Files.setPosixFilePermissions(planted, PosixFilePermissions.fromString("rw-r--r--"));
        Path dangling = Files.createSymbolicLink(copy.resolve("node_modules/dynalite/later.js"), outside.resolve("not-yet.js"));
        assertRefused(copy, dangling + " is a link to nothing"); // whoever can create its target later would choose the code
    }

    /**
     * Every folder above is checked, up to /: one others can write is refused, as OpenSSH refuses
     * it. A sticky one owned by root (/tmp, where every @TempDir of these tests lives) is not:
     * others cannot move or remove a folder of this user's in it; a sticky one of another user's is.
     */
    @Test
    void foldersAboveOthersCanWriteAreRefusedButNotAStickyOneOwnedByRoot(@TempDir Path temp) throws IOException {
        Path tmp = temp.getParent();
        assertEquals(01000, (Integer) Files.getAttribute(tmp, "unix:mode") & 01000, tmp + " is sticky, as /tmp is");
        assertEquals(0, (Integer) Files.getAttribute(tmp, "unix:uid"), tmp + " is root's, as /tmp is");

        Path open = Files.createDirectories(temp.resolve("open"));
        Path copy = copyOfTheRepositoryInstall(open.resolve("engine"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertRefused(copy, open + " is writable by every user (a folder above " + copy + ")");

        Files.setAttribute(open, "unix:mode", 01777);
        assertEquals(copy, DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"),
                "a sticky folder of root's above");
        UserPrincipal nobody = open.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(open, nobody); // the test runs as root in CI containers; elsewhere chown is refused and the test fails loudly
        assertRefused(copy, open + " is owned by nobody");
    }

    private static void assertRefused(Path configured, String why) {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, configured.toString()), System.out, "no-npm"));
        assertTrue(refused.getMessage().contains(why), refused.getMessage());
        assertTrue(refused.getMessage().startsWith("refusing to run dynalite from " + configured), refused.getMessage());
    }

    @Test
    void aHandMadeDynaliteIsNotThePinnedInstall(@TempDir Path temp) throws IOException {
        Path planted = temp.resolve("planted");
        Files.createDirectories(planted.resolve("node_modules/dynalite"));
        Files.writeString(planted.resolve("package.json"), "{\"dependencies\":{\"dynalite\":\"4.0.0\"}}");
        Files.writeString(planted.resolve("node_modules/dynalite/cli.js"), "require('fs').writeFileSync('/tmp/owned', 'x')");
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, planted.toString()), System.out, "no-npm"));
        assertTrue(refused.getMessage().contains("not the pinned install"), refused.getMessage());

        // The same with npm's record copied in, but one package of another version.
        Path copy = copyOfTheRepositoryInstall(temp.resolve("engine"));
        Path asyncJson = copy.resolve("node_modules/async/package.json");
        Files.writeString(asyncJson, Files.readString(asyncJson).replaceFirst("\"version\"\\s*:\\s*\"[^\"]+\"", "\"version\": \"0.0.1\""));
        refused = assertThrows(IllegalStateException.class,
                () -> DynaliteInstall.find(Map.of(DynaliteSettings.DYNALITE_DIR, copy.toString()), System.out, "no-npm"));
        assertTrue(refused.getMessage().contains(asyncJson + " is not version"), refused.getMessage());
    }

    /** The build's own install (the repository's dynalite/ module), copied: links as links. */
    private static Path copyOfTheRepositoryInstall(Path target) throws IOException {
        Path source = DynaliteInstall.find(Map.of(), System.out, "no-such-npm-command");
        try (Stream<Path> tree = Files.walk(source.resolve("node_modules"))) {
            for (Path from : (Iterable<Path>) tree::iterator) {
                Path to = target.resolve(source.relativize(from).toString());
                if (Files.isSymbolicLink(from)) {
                    Files.createSymbolicLink(to, Files.readSymbolicLink(from));
                } else if (Files.isDirectory(from, LinkOption.NOFOLLOW_LINKS)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(from, to);
                }
            }
        }
        Files.copy(source.resolve("package.json"), target.resolve("package.json"));
        // @TempDir makes its folder for this user only; the copies keep the modes umask gave the build's install.
        return target;
    }
}
