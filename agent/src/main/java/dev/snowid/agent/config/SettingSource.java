package dev.snowid.agent.config;

import static dev.snowid.agent.config.AgentProperties.ALL;
import static dev.snowid.agent.config.AgentProperties.CATALOGUE;
import static dev.snowid.agent.config.AgentProperties.CONFIG;
import static dev.snowid.agent.config.AgentProperties.LEASE_AUTH;
import static dev.snowid.agent.config.AgentProperties.LEASE_SECRET;
import static dev.snowid.agent.config.AgentProperties.LEASE_URL;
import static dev.snowid.agent.config.AgentProperties.VARIABLES;
import static dev.snowid.agent.config.AgentProperties.envName;

import dev.snowid.client.BearerSecretStrength;
import dev.snowid.internal.WarningCode;
import dev.snowid.protocol.HttpUrl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Where the agent's settings come from, and nothing else: a system property, else its environment
 * variable, else the properties file that {@code snowid.config} or the agent argument names
 * ({@code -javaagent:snowid-agent.jar=<path>}, {@code jcmd <pid> JVMTI.agent_load <jar> <path>}):
 * precedence {@code -D} &gt; environment &gt; file. Every value the agent reads passes through
 * here; {@link AgentSettings} parses and checks them. The warnings about names from these sources
 * the agent does not read come from its catalogue ({@link AgentProperties#CATALOGUE}).
 */
final class SettingSource {

    final Properties systemProperties;
    final Map<String, String> environment;
    final ConfigFile file;
    final List<String> warnings = new ArrayList<>();

    private SettingSource(Properties systemProperties, Map<String, String> environment, ConfigFile file) {
        this.systemProperties = systemProperties;
        this.environment = environment;
        this.file = file;
    }

    /** The system property, else its environment variable, else the file's key; null when none is set to something. */
    String get(String property) {
        String value = fromProperty(property);
        if (value == null) {
            value = fromEnvironment(property);
        }
        return value != null || property.equals(CONFIG) ? value : file.get(property);
    }

    String fromProperty(String property) {
        return nonEmpty(systemProperties.getProperty(property));
    }

    String fromEnvironment(String property) {
        return nonEmpty(environment.get(envName(property)));
    }

    private static String nonEmpty(String value) {
        return value == null || value.trim().isEmpty() ? null : value;
    }

    /**
     * The lease secret, which alone prefers its environment variable: a system property shows in
     * the process list. Warns where it is readable by others.
     */
    String leaseSecret() {
        String fromEnv = fromEnvironment(LEASE_SECRET);
        String fromProperty = fromProperty(LEASE_SECRET);
        String fromFile = file.get(LEASE_SECRET);
        if (fromProperty != null) {
            warnings.add(WarningCode.SECRET_IN_SYSTEM_PROPERTY.tag(fromEnv != null
                    ? LEASE_SECRET + " is set both as a system property and as " + envName(LEASE_SECRET) + "; using the environment variable"
                    : LEASE_SECRET + " is set as a system property, which every user of this machine can read in the process list;"
                            + " set the environment variable " + envName(LEASE_SECRET) + " instead"));
        }
        String secret = fromEnv != null ? fromEnv : fromProperty != null ? fromProperty : fromFile;
        if (secret == null) {
            String typo = misspelt(LEASE_SECRET);
            throw new AgentConfigurationException((typo != null ? typo + " Otherwise: " : "")
                    + LEASE_URL + " needs the lease API's bearer secret: set the environment variable "
                    + envName(LEASE_SECRET) + " (or " + LEASE_SECRET + " in the " + CONFIG + " file, or the system property); inside AWS, "
                    + LEASE_AUTH + "=aws_iam signs with this workload's role instead");
        }
        if (fromEnv == null && fromProperty == null && file.readableByAll()) {
            warnings.add(WarningCode.SECRET_FILE_READABLE.tag(LEASE_SECRET + " is in " + file.path() + ", which every user of this"
                    + " machine can read; allow only the application's user (chmod o-r)"));
        }
        String where = fromEnv != null ? "the environment variable " + envName(LEASE_SECRET)
                : fromProperty != null ? "the system property " + LEASE_SECRET : LEASE_SECRET + " in " + file.path();
        try {
            return BearerSecretStrength.requireStrong(where, secret.trim());
        } catch (IllegalArgumentException weak) {
            throw new AgentConfigurationException(weak.getMessage());
        }
    }

    /** {@code snowid.node='7:99'} or {@code SNOWID_NODE='7:99'}, whichever was used; a secret's value never shown. */
    String describe(String property) {
        return describe(property, false);
    }

    /** As {@link #describe(String)}, the value quoted as {@link HttpUrl#shown} quotes a URL (a secret typed in its place unseen). */
    String describeUrl(String property) {
        return describe(property, true);
    }

    private String describe(String property, boolean url) {
        String value = fromProperty(property);
        if (value != null) {
            return shown(property, value, url);
        }
        value = fromEnvironment(property);
        if (value != null) {
            return shown(envName(property), value, url) + " (" + property + ")";
        }
        value = property.equals(CONFIG) ? null : file.get(property);
        return value != null ? shown(property, value, url) + " (in " + file.path() + ")" : property;
    }

    private static String shown(String name, String value, boolean url) {
        return url ? name + "='" + HttpUrl.shown(value.trim()) + "'" : CATALOGUE.shown(name, value);
    }

    /** One warning per system property, environment variable and file key the agent does not read; the file is for the agent alone. */
    void warnAboutUnknownNames() {
        warnings.addAll(CATALOGUE.unknownNames("system property", systemProperties.stringPropertyNames(), "snowid.", ALL,
                Collections.<String>emptyList()));
        for (String key : new TreeSet<>(file.keys())) {
            if (key.equals(CONFIG)) {
                warnings.add(WarningCode.NESTED_CONFIG_FILE.tag(CONFIG + " in " + file.path() + " is ignored: a file cannot name another"));
            }
        }
        warnings.addAll(CATALOGUE.unknownNames("file " + file.path() + ": key", file.keys(), "", ALL,
                Collections.<String>emptyList()));
        warnings.addAll(CATALOGUE.unknownNames("environment variable", environment.keySet(), "SNOWID_", VARIABLES,
                Collections.<String>emptyList()));
    }

    /**
     * Where a required {@code property} that is not set was probably meant to be: an unknown
     * system property, variable or file key whose closest known name it is, e.g.
     * {@code -Dsnowid.target='hutool' is not a setting; did you mean `snowid.targets`?}; null when none.
     */
    String misspelt(String property) {
        for (String name : new TreeSet<>(systemProperties.stringPropertyNames())) {
            if (name.startsWith("snowid.") && !CATALOGUE.reads(name) && property.equals(CATALOGUE.closest(name, ALL))) {
                return "-D" + CATALOGUE.shown(name, systemProperties.getProperty(name)) + " is not a setting; did you mean `"
                        + property + "`?";
            }
        }
        for (String name : new TreeSet<>(environment.keySet())) {
            if (name.startsWith("SNOWID_") && !CATALOGUE.reads(name) && envName(property).equals(CATALOGUE.closest(name, VARIABLES))) {
                return "environment variable " + CATALOGUE.shown(name, environment.get(name)) + " is not a setting; did you mean `"
                        + envName(property) + "`?";
            }
        }
        for (String key : new TreeSet<>(file.keys())) {
            if (!CATALOGUE.reads(key) && property.equals(CATALOGUE.closest(key, ALL))) {
                return CATALOGUE.shown(key, file.get(key)) + " in " + file.path() + " is not a setting; did you mean `" + property + "`?";
            }
        }
        return null;
    }

    /** The settings of a JVM: its system properties, its environment, and the file the agent argument or {@code snowid.config} names. */
    static SettingSource of(Properties systemProperties, Map<String, String> environment, String agentArguments) {
        return new SettingSource(systemProperties, environment, configFile(systemProperties, environment, agentArguments));
    }

    /** The file named by the agent argument, else by {@code snowid.config} / {@code SNOWID_CONFIG}; none when neither. */
    private static ConfigFile configFile(Properties systemProperties, Map<String, String> environment, String agentArguments) {
        if (agentArguments != null && !agentArguments.trim().isEmpty()) {
            // A bare path: jcmd's JVMTI.agent_load would split "name=value" and drop the value.
            return ConfigFile.read(agentArguments, "agent argument '" + agentArguments.trim() + "' (" + CONFIG + ")");
        }
        SettingSource plain = new SettingSource(systemProperties, environment, ConfigFile.NONE);
        String location = plain.get(CONFIG);
        return location == null ? ConfigFile.NONE : ConfigFile.read(location, plain.describe(CONFIG));
    }
}
