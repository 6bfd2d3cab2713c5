package dev.snowid.lambda.api;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The project version, as the build wrote it into the function jar's
 * {@code dev/snowid/lambda/version.properties}: {@code GET /health} says it.
 */
public final class Version {

    public static final String CURRENT = read();

    private Version() {
    }

    private static String read() {
        try (InputStream in = Version.class.getResourceAsStream("/dev/snowid/lambda/version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
