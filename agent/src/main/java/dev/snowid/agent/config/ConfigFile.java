package dev.snowid.agent.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Properties;
import java.util.Set;

/**
 * The agent's properties file ({@code snowid.config}): the same {@code snowid.*} keys as the
 * system properties, in UTF-8. It comes last: a system property or an environment variable
 * overrides what it says. A file that is missing or unreadable is a configuration error, never
 * silently skipped: the settings the operator put there would be lost. A file another user could
 * change is refused ({@link ConfigFileTrust}): it names where the secret goes.
 */
public final class ConfigFile {

    static final ConfigFile NONE = new ConfigFile(null, new Properties());

    private final Path path;
    private final Properties values;

    private ConfigFile(Path path, Properties values) {
        this.path = path;
        this.values = values;
    }

    /** {@code setting} names where the path came from, e.g. {@code snowid.config='/etc/snowid.properties'}. */
    static ConfigFile read(String location, String setting) {
        return FromDisk.read(location, setting);
    }

    /** The value of {@code key}; null when absent or empty (as for properties and variables). */
    String get(String key) {
        String value = values.getProperty(key);
        return value == null || value.trim().isEmpty() ? null : value;
    }

    Set<String> keys() {
        return values.stringPropertyNames();
    }

    Path path() {
        return path;
    }

    /** Whether every user of the machine may read it (false where the file system cannot say). */
    boolean readableByAll() {
        return FromDisk.readableByAll(path);
    }

    /**
     * What touches the disk, in a class of its own: verifying a class loads every exception it
     * catches, and a JVM without a file (most) should not load those before main.
     */
    private static final class FromDisk {

        static ConfigFile read(String location, String setting) {
            String allowed = "allowed: the path of a readable properties file with snowid.* keys (e.g. snowid.node=7:13), absolute or"
                    + " relative to the working directory " + System.getProperty("user.dir") + "; the agent argument, if any, is such a path";
            Path path;
            try {
                path = Paths.get(location.trim());
            } catch (InvalidPathException e) {
                throw new AgentConfigurationException(setting + " is not a path (" + e.getMessage() + "); " + allowed);
            }
            if (Files.isDirectory(path)) {
                throw new AgentConfigurationException(setting + " cannot be read: it is a directory; " + allowed);
            }
            ConfigFileTrust.require(path, setting);
            Properties values = new Properties();
            try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
                values.load(in);
            } catch (NoSuchFileException e) {
                throw new AgentConfigurationException(setting + " cannot be read: no such file; " + allowed);
            } catch (AccessDeniedException e) {
                throw new AgentConfigurationException(setting + " cannot be read: permission denied; " + allowed);
            } catch (CharacterCodingException e) {
                throw new AgentConfigurationException(setting + " cannot be read: it is not UTF-8 text; " + allowed);
            } catch (IOException e) {
                throw new AgentConfigurationException(setting + " cannot be read: " + e.getMessage() + "; " + allowed);
            } catch (IllegalArgumentException e) {
                throw new AgentConfigurationException(setting + " is not a properties file: " + e.getMessage() + "; " + allowed);
            }
            return new ConfigFile(path, values);
        }

        static boolean readableByAll(Path path) {
            try {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(path);
                return permissions.contains(PosixFilePermission.OTHERS_READ);
            } catch (IOException | UnsupportedOperationException e) {
                return false;
            }
        }
    }
}
