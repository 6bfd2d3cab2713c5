package dev.snowid.dynalite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
}
