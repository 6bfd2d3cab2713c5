package dev.snowid.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The jar that puts the bridge on the bootstrap class path: nobody but this user may read or change it. */
class BootstrapBridgeJarTest {

    @Test
    void theBridgeJarIsOwnerOnlyFromItsCreationAndHoldsTheBridge() throws Exception {
        try (JarFile jar = BootstrapBridge.writeJar()) {
            Path file = Paths.get(jar.getName());
            try {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file::toString);
                assertNotNull(jar.getJarEntry("dev/snowid/agent/bootstrap/SnowidBridge.class"));
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }
}
