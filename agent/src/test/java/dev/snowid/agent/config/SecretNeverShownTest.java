package dev.snowid.agent.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.SnowflakeCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent front end never shows the bearer secret: a recognisable secret is put wherever the
 * agent reads settings (environment, system properties, its file), under its own name, a typo of
 * it, a name that sounds secret and inside a URL, beside every mistake that stops or warns, and
 * every message, warning and start-up summary is searched for it.
 */
class SecretNeverShownTest {

    private static final String MARK = "Sn0wMarkQ7";
    private static final String SECRET = MARK + "6dcdd2ba01fe3e6f0345979db65650d8ea8fb86bfa4bcefd2ccfaac3cb2b63f7";
    private static final String URL = "https://api.example.org/prod";

    @TempDir
    Path dir;

    private final List<String> shown = new ArrayList<>();

    @Test
    void noMessageWarningOrSummaryShowsTheSecret() throws IOException {
        // A weak secret, wherever it is set.
        read(env("SNOWID_LEASE_SECRET", MARK + "weak"), props());
        read(env(), props("snowid.lease.secret", MARK + "weak"));
        read(env(), props(), file("snowid.lease.secret=" + MARK + "weak"));
        // A secret left over in IAM mode, wherever it is set.
        read(env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_AUTH", "aws_iam"), props());
        read(env("SNOWID_LEASE_AUTH", "aws_iam"), props("snowid.lease.secret", SECRET));
        read(env("SNOWID_LEASE_AUTH", "aws_iam"), props(), file("snowid.lease.secret=" + SECRET));
        // A typo of the secret's name (so no secret is set), and names that sound secret.
        read(env("SNOWID_LEASE_SECRETS", SECRET), props());
        read(env("SNOWID_LEASE_SECERT", SECRET), props());
        read(env(), props("snowid.lease.secrets", SECRET));
        read(env(), props(), file("snowid.lease.secrte=" + SECRET));
        read(env("SNOWID_LEASE_TOKEN", SECRET, "SNOWID_LEASE_SECRET", SECRET), props("snowid.api.key", SECRET));
        read(env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_LEASE_SECRET_FILE", "/run/" + SECRET), props());
        // Set twice, as a system property (others can read it) and in a file others can read.
        read(env("SNOWID_LEASE_SECRET", SECRET), props("snowid.lease.secret", SECRET));
        read(env(), props("snowid.lease.secret", SECRET));
        Path readable = file("snowid.lease.secret=" + SECRET);
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));
        read(env(), props(), readable);
        // Other mistakes beside the secret, and the secret inside the URL.
        read(env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_NODE", "7:99"), props());
        read(env("SNOWID_LEASE_SECRET", SECRET, "SNOWID_ON_UNAVAILABLE", "sometimes"), props());
        read(env("SNOWID_LEASE_SECRET", SECRET), props("snowid.lease.url", "https://orders:" + SECRET + "@api.example.org"));
        read(env("SNOWID_LEASE_SECRET", SECRET), props("snowid.lease.url", "https://api.example.org/?token=" + SECRET));
        read(env("SNOWID_LEASE_SECRET", SECRET), props("snowid.lease.url", "http://api.example.org"));
        read(env("SNOWID_LEASE_URL", SECRET), props(), file("snowid.lease.url=" + SECRET)); // the secret given as the URL

        assertTrue(shown.size() >= 20, "every case was read and searched: " + shown);
        for (String text : shown) {
            assertFalse(text.contains(MARK), "the secret shows in: " + text);
        }
    }

    /** Reads the settings; keeps the refusal, or the warnings and the start-up summary. */
    private void read(Map<String, String> environment, Properties properties, Path... file) {
        if (!properties.containsKey("snowid.lease.url") && !environment.containsKey("SNOWID_LEASE_URL") && file.length == 0) {
            properties.setProperty("snowid.lease.url", URL);
        }
        properties.setProperty("snowid.targets", "com.acme.Ids#next");
        try {
            AgentSettings settings = AgentSettings.read(properties, environment, file.length == 0 ? null : file[0].toString());
            shown.add(String.join("\n", settings.warnings()));
            shown.add(settings.summary(SnowflakeCodec.TWITTER));
            shown.add(settings.toString());
        } catch (AgentConfigurationException refused) {
            shown.add(refused.getMessage());
            shown.add(refused.toString());
        }
    }

    private Path file(String... lines) throws IOException {
        Path file = Files.createTempFile(dir, "snowid", ".properties");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.write(file, Arrays.asList(lines), StandardCharsets.UTF_8);
        return file;
    }

    private static Map<String, String> env(String... namesAndValues) {
        Map<String, String> environment = new HashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            environment.put(namesAndValues[i], namesAndValues[i + 1]);
        }
        return environment;
    }

    private static Properties props(String... namesAndValues) {
        Properties properties = new Properties();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            properties.setProperty(namesAndValues[i], namesAndValues[i + 1]);
        }
        return properties;
    }
}
