package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/** The function jar knows the version it was built as: in its manifest, and where GET /health reads it. */
class FunctionJarVersionTest {

    @Test
    void theJarCarriesTheProjectVersion() throws IOException {
        String version = System.getProperty("snowid.version");
        assertNotNull(version, "run through Maven: infra/pom.xml sets snowid.version");
        Path jar = Path.of(System.getProperty("snowid.function.jar")).toAbsolutePath();
        try (JarFile file = new JarFile(jar.toFile())) {
            assertEquals(version, file.getManifest().getMainAttributes().getValue("Implementation-Version"), "manifest");
            ZipEntry entry = file.getEntry("dev/snowid/lambda/version.properties");
            assertNotNull(entry, "dev/snowid/lambda/version.properties, which GET /health reads");
            Properties properties = new Properties();
            try (InputStream in = file.getInputStream(entry)) {
                properties.load(in);
            }
            assertEquals(version, properties.getProperty("version"), "version.properties");
        }
    }
}
