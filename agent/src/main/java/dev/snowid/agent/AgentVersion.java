package dev.snowid.agent;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The agent's version: from its jar's manifest ({@code Implementation-Version}, which the class
 * loader read when it defined this package), else from {@code agent-version.properties}, written
 * by the build, for classes that do not come from the agent jar.
 */
public final class AgentVersion {

    static final String NAME = "snowid-agent";

    private static final String RESOURCE = "agent-version.properties";

    private AgentVersion() {
    }

    /** e.g. {@code 0.1.0}; "unknown" when the classes do not come from a build of the agent. */
    static String version() {
        // The manifest first: looking up and parsing the properties file cost start-up time.
        Package agent = AgentVersion.class.getPackage();
        if (agent != null && NAME.equals(agent.getImplementationTitle()) && agent.getImplementationVersion() != null) {
            return agent.getImplementationVersion();
        }
        try (InputStream in = AgentVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            String version = properties.getProperty("version");
            return version == null || version.startsWith("${") ? "unknown" : version;
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** {@code snowid-agent 0.1.0}. */
    static String nameAndVersion() {
        return NAME + " " + version();
    }
}
