package dev.snowid.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The version the start-up line and {@code version} show: the agent jar's manifest, else the file the build writes. */
class AgentVersionTest {

    private static final String CLASS_FILE = "dev/snowid/agent/AgentVersion.class";

    @TempDir
    Path dir;

    @Test
    void fromTheAgentJarsManifest() throws Exception {
        assertEquals("9.8.7-manifest", versionInJar("snowid-agent", "9.8.7-manifest"));
    }

    /** Another jar's manifest (the agent's classes repackaged) does not name the agent's version; this jar has no properties file. */
    @Test
    void notFromAnotherJarsManifest() throws Exception {
        assertEquals("unknown", versionInJar("some-application", "9.8.7-manifest"));
    }

    /** Classes from a directory (these tests): the properties file the build filled in. */
    @Test
    void fromThePropertiesFileWithoutAManifest() {
        String version = AgentVersion.version();
        assertNotEquals("unknown", version);
        assertFalse(version.contains("${"), version);
    }

    /** {@link AgentVersion#version()} of the class loaded from a jar of its own, with this manifest. */
    private String versionInJar(String title, String version) throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_TITLE, title);
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, version);
        Path jar = dir.resolve(title + ".jar");
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
                InputStream classFile = AgentVersion.class.getClassLoader().getResourceAsStream(CLASS_FILE)) {
            out.putNextEntry(new JarEntry(CLASS_FILE));
            classFile.transferTo(out);
            out.closeEntry();
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader())) {
            Class<?> loaded = loader.loadClass(AgentVersion.class.getName());
            assertEquals(loader, loaded.getClassLoader(), "loaded from the test jar");
            Method read = loaded.getDeclaredMethod("version");
            read.setAccessible(true);
            return (String) read.invoke(null);
        }
    }
}
