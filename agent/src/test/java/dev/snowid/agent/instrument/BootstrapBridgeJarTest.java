package dev.snowid.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;

/** The jar that puts the bridge on the bootstrap class path: nobody but this user may read or change it. */
class BootstrapBridgeJarTest {

    private static final String BRIDGE_CLASS = "dev/snowid/agent/bootstrap/SnowidBridge.class";

    @Test
    void theBridgeJarIsOwnerOnlyFromItsCreationAndHoldsTheBridge() throws Exception {
        try (JarFile jar = BootstrapBridge.writeJar()) {
            Path file = Paths.get(jar.getName());
            try {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file::toString);
                assertNotNull(jar.getJarEntry(BRIDGE_CLASS));
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    /** Built with the agent: it must hold the bridge as compiled, and nothing else for the bootstrap class path. */
    @Test
    void theBuiltJarHoldsExactlyTheCompiledBridge() throws Exception {
        byte[][] read = BootstrapBridge.fromAgent(BootstrapBridge.BRIDGE_JAR, BRIDGE_CLASS);
        assertNotNull(read[0], BootstrapBridge.BRIDGE_JAR + " was not built");
        List<String> names = new ArrayList<>();
        try (ZipInputStream jar = new ZipInputStream(new ByteArrayInputStream(read[0]))) {
            for (ZipEntry entry; (entry = jar.getNextEntry()) != null; ) {
                names.add(entry.getName());
                if (entry.getName().equals(BRIDGE_CLASS)) {
                    assertArrayEquals(read[1], jar.readAllBytes());
                }
            }
        }
        assertEquals(List.of(BRIDGE_CLASS), names);
    }

    @Test
    void aMissingEntryReadsAsNull() throws Exception {
        assertNull(BootstrapBridge.fromAgent("dev/snowid/agent/instrument/no-such.jar")[0]);
    }
}
