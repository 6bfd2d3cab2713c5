package dev.snowid.local;

import dev.snowid.dynalite.EngineCredential;
import dev.snowid.lambda.dynamodb.DynamoDbClaimRegistry;
import dev.snowid.lambda.dynamodb.LeaseTableClient;
import dev.snowid.lambda.dynamodb.RegistryTable;
import dev.snowid.lambda.settings.FunctionSettings;
import dev.snowid.lambda.settings.InvalidSettingException;
import dev.snowid.lambda.settings.RegionSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The credential of a local claim registry ({@link LocalRegistry}), which the runner shows on
 * every request to {@value FunctionSettings#REGISTRY_ENDPOINT}. Trusted as the runner trusts its
 * own engine's: a plain file of this user's that no one else may read or write, and only ever sent
 * to a loopback endpoint, so it never crosses a network.
 */
final class RegistryCredential {

    private static final Set<PosixFilePermission> OWNER_ONLY = EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private final EngineCredential credential;
    private final URI endpoint;
    private final String table;

    private RegistryCredential(EngineCredential credential, URI endpoint, String table) {
        this.credential = credential;
        this.endpoint = endpoint;
        this.table = table;
    }

    /**
     * The credential {@value LocalSettings#LOCAL_REGISTRY_CREDENTIAL_FILE} names, if set.
     *
     * @throws InvalidSettingException naming that setting: no loopback registry endpoint, or a file others can read, write or swap
     */
    static Optional<RegistryCredential> from(Map<String, String> env, RegionSettings region) {
        Optional<String> named = LocalSettings.registryCredentialFile(env);
        if (named.isEmpty()) {
            return Optional.empty();
        }
        String setting = LocalSettings.LOCAL_REGISTRY_CREDENTIAL_FILE;
        URI endpoint = region.registryEndpoint().filter(RegistryCredential::isLoopback).orElseThrow(() -> new InvalidSettingException(
                setting, "is sent only to a claim registry on this machine: set " + FunctionSettings.REGISTRY_ENDPOINT
                + " to the loopback endpoint run-local.sh registry printed (it is "
                + region.registryEndpoint().map(URI::toString).orElse("unset") + "), or unset " + setting));
        Path file = Path.of(named.get());
        try {
            PosixFileAttributes attributes = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            String user = System.getProperty("user.name");
            if (!attributes.isRegularFile()) {
                throw new InvalidSettingException(setting, file + " is not a plain file (a link or a folder); name the file"
                        + " run-local.sh registry printed");
            }
            if (!attributes.owner().getName().equals(user) || !OWNER_ONLY.containsAll(attributes.permissions())) {
                throw new InvalidSettingException(setting, file + " belongs to " + attributes.owner().getName() + " with mode "
                        + PosixFilePermissions.toString(attributes.permissions()) + "; a credential must be "
                        + user + "'s alone, mode 600 (chmod 600 " + file + "), as run-local.sh registry writes it");
            }
        } catch (UnsupportedOperationException noPosix) {
            // A file system without POSIX permissions (Windows): nothing to check beyond what its ACLs allow.
        } catch (IOException e) {
            throw new InvalidSettingException(setting, "cannot read " + file + " (" + e.getMessage() + "); name the file"
                    + " run-local.sh registry printed, while it runs");
        }
        return Optional.of(new RegistryCredential(EngineCredential.readFile(file), endpoint, region.registryTable().orElseThrow()));
    }

    /** Creates the registry table through the credential, unless it exists (the registry made it already, normally). */
    void createTableIfMissing() {
        try (DynamoDbClient client = client().attemptTimeout(Duration.ofSeconds(5)).build()) {
            RegistryTable.createIfMissing(client, table);
        }
    }

    /** A claim registry client that shows the credential on every request. */
    DynamoDbClaimRegistry registry() {
        return DynamoDbClaimRegistry.create(table, FunctionSettings.REGISTRY_TABLE, client(), "");
    }

    private LeaseTableClient.Builder client() {
        return LeaseTableClient.builder().endpoint(endpoint).interceptor(new EngineCredentialHeader(credential));
    }

    static boolean isLoopback(URI endpoint) {
        try {
            return endpoint.getHost() != null && InetAddress.getByName(endpoint.getHost()).isLoopbackAddress();
        } catch (IOException e) {
            return false;
        }
    }
}
