package dev.snowid.agent.config;

import static dev.snowid.agent.config.AgentSettings.ALL;
import static dev.snowid.agent.config.AgentSettings.CONFIG;
import static dev.snowid.agent.config.AgentSettings.EPOCH;
import static dev.snowid.agent.config.AgentSettings.LEASE_AUTH;
import static dev.snowid.agent.config.AgentSettings.LEASE_SECRET;
import static dev.snowid.agent.config.AgentSettings.LEASE_URL;
import static dev.snowid.agent.config.AgentSettings.ON_UNAVAILABLE;
import static dev.snowid.agent.config.AgentSettings.TARGETS;
import static dev.snowid.agent.config.AgentSettings.envName;
import dev.snowid.internal.ClosestName;
import dev.snowid.protocol.BearerSecretStrength;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the agent's settings come from, and nothing else: a system property, else its environment
 * variable, else the properties file that {@code snowid.config} or the agent argument names
 * ({@code -javaagent:snowid-agent.jar=<path>}, {@code jcmd <pid> JVMTI.agent_load <jar> <path>}):
 * precedence {@code -D} &gt; environment &gt; file. Every
 * value the agent reads passes through here; {@link AgentSettings} parses and checks them.
 * Also the warnings about settings from these sources the agent does not know.
 */
final class SettingSource {

    /**
     * {@code SNOWID_*} variables of the snowid function (or mistyped ones) whose meaning the agent
     * has under another name; any other unknown {@code SNOWID_*} variable gets a generic warning.
     */
    private static final Map<String, String> EQUIVALENTS = equivalents();

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
            warnings.add(fromEnv != null
                    ? LEASE_SECRET + " is set both as a system property and as " + envName(LEASE_SECRET) + "; using the environment variable"
                    : LEASE_SECRET + " is set as a system property, which every user of this machine can read in the process list;"
                            + " set the environment variable " + envName(LEASE_SECRET) + " instead");
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
            warnings.add(LEASE_SECRET + " is in " + file.path() + ", which every user of this machine can read;"
                    + " allow only the application's user (chmod o-r)");
        }
        String where = fromEnv != null ? "the environment variable " + envName(LEASE_SECRET)
                : fromProperty != null ? "the system property " + LEASE_SECRET : LEASE_SECRET + " in " + file.path();
        try {
            return BearerSecretStrength.requireStrong(where, secret.trim());
        } catch (IllegalArgumentException weak) {
            throw new AgentConfigurationException(weak.getMessage());
        }
    }

    /** {@code snowid.node='7:99'} or {@code SNOWID_NODE='7:99'}, whichever was used. */
    String describe(String property) {
        String value = fromProperty(property);
        if (value != null) {
            return property + "='" + value + "'";
        }
        value = fromEnvironment(property);
        if (value != null) {
            return envName(property) + "='" + value + "' (" + property + ")";
        }
        value = property.equals(CONFIG) ? null : file.get(property);
        return value != null ? property + "='" + value + "' (in " + file.path() + ")" : property;
    }

    /** Keys of the file the agent does not read; the file is for the agent alone. */
    void warnAboutUnknownFileKeys() {
        for (String key : new TreeSet<>(file.keys())) {
            if (key.equals(CONFIG)) {
                warnings.add(CONFIG + " in " + file.path() + " is ignored: a file cannot name another");
            } else if (!ALL.contains(key)) {
                warnings.add("unknown key " + key + " in " + file.path() + " is ignored" + suggestion(key, ALL));
            }
        }
    }

    void warnAboutUnknownProperties() {
        for (String name : systemProperties.stringPropertyNames()) {
            if (name.startsWith("snowid.") && !ALL.contains(name)) {
                warnings.add("unknown system property " + name + " is ignored" + suggestion(name, ALL));
            }
        }
    }

    /** One line per {@code SNOWID_*} variable the agent does not read, naming its equivalent where there is one. */
    void warnAboutUnknownEnvironmentVariables() {
        Set<String> known = knownEnvironmentNames();
        for (String name : new TreeSet<>(environment.keySet())) {
            if (!name.startsWith("SNOWID_") || known.contains(name)) {
                continue;
            }
            String equivalent = EQUIVALENTS.get(name);
            String closest = ClosestName.among(name, known);
            warnings.add("environment variable " + name + " is ignored: " + (equivalent != null ? equivalent
                    : closest != null ? "did you mean `" + closest + "`?"
                    : "it is not an agent setting (the snowid function's settings do not apply to the agent); the agent reads "
                            + known));
        }
    }

    /**
     * Where a required {@code property} that is not set was probably meant to be: an unknown
     * system property, variable or file key whose closest known name it is, e.g.
     * {@code -Dsnowid.target='hutool' is not a setting; did you mean `snowid.targets`?}; null when none.
     */
    String misspelt(String property) {
        for (String name : new TreeSet<>(systemProperties.stringPropertyNames())) {
            if (name.startsWith("snowid.") && !ALL.contains(name) && property.equals(ClosestName.among(name, ALL))) {
                return "-D" + name + "='" + systemProperties.getProperty(name) + "' is not a setting; did you mean `" + property + "`?";
            }
        }
        Set<String> known = knownEnvironmentNames();
        for (String name : new TreeSet<>(environment.keySet())) {
            if (name.startsWith("SNOWID_") && !known.contains(name) && envName(property).equals(ClosestName.among(name, known))) {
                return "environment variable " + name + "='" + environment.get(name) + "' is not a setting; did you mean `"
                        + envName(property) + "`?";
            }
        }
        for (String key : new TreeSet<>(file.keys())) {
            if (!ALL.contains(key) && property.equals(ClosestName.among(key, ALL))) {
                return key + "='" + file.get(key) + "' in " + file.path() + " is not a setting; did you mean `" + property + "`?";
            }
        }
        return null;
    }

    private static Set<String> knownEnvironmentNames() {
        Set<String> known = new LinkedHashSet<>();
        for (String property : ALL) {
            known.add(envName(property));
        }
        return known;
    }

    /** "; did you mean `snowid.targets`?", else the list of what the agent reads. */
    private static String suggestion(String name, List<String> known) {
        String closest = ClosestName.didYouMean(name, known);
        return closest.isEmpty() ? "; the agent reads " + known : closest;
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

    private static Map<String, String> equivalents() {
        Map<String, String> equivalents = new HashMap<>();
        equivalents.put("SNOWID_EPOCH_MILLIS", "the agent reads " + EPOCH + " / " + envName(EPOCH));
        equivalents.put("SNOWID_LEASE_SECRET_SHA256", "it is the function's hash of the secret; the agent reads the secret itself from "
                + envName(LEASE_SECRET));
        equivalents.put("SNOWID_LEASE_PRINCIPALS", "it is the function's list of the roles that may lease; the agent signs as this "
                + "workload's role with " + LEASE_AUTH + "=aws_iam");
        equivalents.put("SNOWID_ON_UNAVAILABLE", "the agent reads " + ON_UNAVAILABLE + " / " + envName(ON_UNAVAILABLE));
        equivalents.put("SNOWID_TARGET", "the agent reads " + TARGETS + " / " + envName(TARGETS));
        return Collections.unmodifiableMap(equivalents);
    }
}
