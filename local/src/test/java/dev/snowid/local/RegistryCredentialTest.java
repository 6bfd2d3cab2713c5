package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.dynalite.EngineCredential;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local registry's credential goes only to a loopback registry, and only from a file that is the user's alone. */
class RegistryCredentialTest {

    @TempDir
    Path folder;

    private static Map<String, String> env(String endpoint, Path file) {
        return Map.of(FunctionSettings.REGISTRY_TABLE, "snowid-registry", FunctionSettings.REGISTRY_ENDPOINT, endpoint,
                FunctionSettings.REGION, "eu-local", LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE, file.toString());
    }

    private static String refusal(Map<String, String> env) {
        return assertThrows(InvalidSettingException.class,
                () -> RegistryCredential.from(env, FunctionSettings.from(env, LocalSettings.VARIABLES).region())).getMessage();
    }

    @Test
    void theCredentialOfAFileOnlyTheUserCanReadGoesToALoopbackRegistry() {
        Path file = EngineCredential.create(folder).file();
        assertTrue(RegistryCredential.from(env("http://127.0.0.1:8000", file),
                FunctionSettings.from(env("http://127.0.0.1:8000", file), LocalSettings.VARIABLES).region()).isPresent());
    }

    @Test
    void aRegistryOffThisMachineNeverGetsTheCredential() {
        String message = refusal(env("http://registry.example:8000", EngineCredential.create(folder).file()));
        assertTrue(message.startsWith(LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE) && message.contains("loopback"), message);
    }

    @Test
    void aCredentialFileOthersCanReadOrSwapIsRefused() throws IOException {
        Path file = EngineCredential.create(folder).file();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        String message = refusal(env("http://127.0.0.1:8000", file));
        assertTrue(message.startsWith(LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE) && message.contains("mode 600"), message);

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Path link = Files.createSymbolicLink(folder.resolve("link"), file);
        message = refusal(env("http://127.0.0.1:8000", link));
        assertTrue(message.contains("not a plain file"), message);
    }
}
