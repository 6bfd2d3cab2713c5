package dev.snowid.agent;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.lease.LeaseTerms;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every setting of the agent, read in one place: a system property, else its environment
 * variable (upper-case, dots become {@code _}: {@code snowid.lease.url} ⇔ {@code SNOWID_LEASE_URL}),
 * else the properties file {@code snowid.config} names (the agent argument names it too:
 * {@code -javaagent:snowid-agent.jar=<path>}, {@code jcmd <pid> JVMTI.agent_load <jar> <path>}). The lease secret alone prefers its
 * environment variable. An empty value counts as not set, as in the function. Anything wrong is
 * an {@link AgentConfigurationException} naming the property and what is allowed; things that
 * work but are unwise become {@link #warnings()}.
 */
public final class AgentSettings {

    public static final String NODE = "snowid.node";
    public static final String LEASE_URL = "snowid.lease.url";
    public static final String LEASE_SECRET = "snowid.lease.secret";
    /** {@code bearer} (the secret) or {@code aws_iam} (SigV4 with the workload's AWS credentials; snowid-agent-iam.jar). */
    public static final String LEASE_AUTH = "snowid.lease.auth";
    /** With {@code aws_iam}: the API's region, when the lease URL's host does not name it (a custom domain). */
    public static final String LEASE_REGION = "snowid.lease.region";
    public static final String LEASE_MILLIS = "snowid.lease.millis";
    public static final String WAIT_FOR_SLOT = "snowid.lease.waitForSlot";
    public static final String TARGETS = "snowid.targets";
    public static final String EPOCH = "snowid.epoch";
    public static final String ON_UNAVAILABLE = "snowid.onUnavailable";
    public static final String JMX = "snowid.jmx";
    public static final String CONFIG = "snowid.config";

    static final List<String> ALL = Collections.unmodifiableList(Arrays.asList(
            NODE, LEASE_URL, LEASE_SECRET, LEASE_AUTH, LEASE_REGION, LEASE_MILLIS, WAIT_FOR_SLOT, TARGETS, EPOCH, ON_UNAVAILABLE, JMX, CONFIG));

    /** Far more than any application has; the redirected bodies push the index as a short. */
    static final int MAX_TARGETS = 1000;

    /**
     * {@code SNOWID_*} variables of the snowid function (or mistyped ones) whose meaning the agent
     * has under another name; any other unknown {@code SNOWID_*} variable gets a generic warning.
     */
    private static final Map<String, String> EQUIVALENTS = equivalents();

    /** The longest start-up wait for a free slot: the longest lease, by which every dead holder's slot is free. */
    static final long MAX_WAIT_FOR_SLOT_MILLIS = LeaseTerms.MAX_LEASE_MILLIS;

    private final Slot node;
    private final URL leaseUrl;
    private final String leaseSecret;
    private final boolean leaseSigned;
    private final String leaseRegion;
    private final long leaseMillis;
    private final long waitForSlotMillis;
    private final List<Target> targets;
    private final SnowflakeCodec codec;
    private final boolean epochConfigured;
    private final UnavailablePolicy onUnavailable;
    private final boolean jmx;
    private final List<String> warnings;

    private AgentSettings(Reader reader) {
        String nodeText = reader.get(NODE);
        String urlText = reader.get(LEASE_URL);
        if (nodeText == null && urlText == null) {
            throw new AgentConfigurationException("no node configured: set " + NODE + "=<datacenter>:<machine> (a fixed node, each 0 to 31,"
                    + " e.g. -D" + NODE + "=7:13) or " + LEASE_URL + "=<base URL of the snowid lease API> (a node leased at start-up);"
                    + " environment variables " + envName(NODE) + " / " + envName(LEASE_URL) + " work too");
        }
        if (nodeText != null && urlText != null) {
            throw new AgentConfigurationException(reader.describe(NODE) + " and " + reader.describe(LEASE_URL)
                    + " are both set: choose one, a fixed node or a leased one");
        }
        this.node = nodeText == null ? null : parseNode(reader, nodeText);
        this.leaseUrl = urlText == null ? null : parseUrl(reader, urlText);
        this.leaseSigned = parseLeaseAuth(reader);
        this.leaseSecret = leaseUrl == null || leaseSigned ? null : readSecret(reader);
        this.leaseRegion = parseLeaseRegion(reader, leaseSigned);
        this.leaseMillis = parseLeaseMillis(reader);
        this.waitForSlotMillis = parseWaitForSlot(reader);
        this.targets = parseTargets(reader);
        this.codec = parseEpoch(reader);
        this.epochConfigured = reader.get(EPOCH) != null;
        this.onUnavailable = UnavailablePolicy.parse(reader.get(ON_UNAVAILABLE), reader.describe(ON_UNAVAILABLE));
        this.jmx = parseJmx(reader);
        reader.warnAboutUnknownProperties();
        reader.warnAboutUnknownFileKeys();
        reader.warnAboutUnknownEnvironmentVariables();
        this.warnings = Collections.unmodifiableList(reader.warnings);
    }

    /** Reads the settings of this JVM. */
    public static AgentSettings fromEnvironment() {
        return fromEnvironment(null);
    }

    /** Reads the settings of this JVM; {@code agentArguments} is what followed {@code snowid-agent.jar=}, or null. */
    public static AgentSettings fromEnvironment(String agentArguments) {
        return read(System.getProperties(), System.getenv(), agentArguments);
    }

    public static AgentSettings read(Properties systemProperties, Map<String, String> environment) {
        return read(systemProperties, environment, null);
    }

    public static AgentSettings read(Properties systemProperties, Map<String, String> environment, String agentArguments) {
        return new AgentSettings(new Reader(systemProperties, environment, configFile(systemProperties, environment, agentArguments)));
    }

    /** The file named by the agent argument, else by {@code snowid.config} / {@code SNOWID_CONFIG}; none when neither. */
    private static ConfigFile configFile(Properties systemProperties, Map<String, String> environment, String agentArguments) {
        if (agentArguments != null && !agentArguments.trim().isEmpty()) {
            // A bare path: jcmd's JVMTI.agent_load would split "name=value" and drop the value.
            return ConfigFile.read(agentArguments, "agent argument '" + agentArguments.trim() + "' (" + CONFIG + ")");
        }
        Reader plain = new Reader(systemProperties, environment, ConfigFile.NONE);
        String location = plain.get(CONFIG);
        return location == null ? ConfigFile.NONE : ConfigFile.read(location, plain.describe(CONFIG));
    }

    /** {@code snowid.lease.url} → {@code SNOWID_LEASE_URL}. */
    public static String envName(String property) {
        return property.replace('.', '_').toUpperCase(Locale.ROOT);
    }

    private static Slot parseNode(Reader reader, String text) {
        try {
            return Slot.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new AgentConfigurationException(reader.describe(NODE) + " is invalid: " + e.getMessage());
        }
    }

    private static URL parseUrl(Reader reader, String text) {
        String allowed = "expected the base URL of the snowid lease API, e.g. https://abc123.execute-api.eu-west-1.amazonaws.com";
        URL url;
        try {
            url = new URL(text.trim());
        } catch (MalformedURLException e) {
            throw new AgentConfigurationException(reader.describe(LEASE_URL) + " is not a URL (" + e.getMessage() + "); " + allowed);
        }
        if (!url.getProtocol().equals("https") && !url.getProtocol().equals("http")) {
            throw new AgentConfigurationException(reader.describe(LEASE_URL) + " uses '" + url.getProtocol()
                    + "': only https (or http for a local runner) is allowed; " + allowed);
        }
        if (url.getHost().isEmpty() || url.getQuery() != null || url.getRef() != null) {
            throw new AgentConfigurationException(reader.describe(LEASE_URL) + " needs a host and no query or fragment; " + allowed);
        }
        if (url.getProtocol().equals("http") && !isLoopback(url.getHost())) {
            reader.warnings.add(LEASE_URL + " uses plain http to " + url.getHost() + ": lease requests travel unencrypted; use https");
        }
        return url;
    }

    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]");
    }

    private static String readSecret(Reader reader) {
        String fromEnv = reader.fromEnvironment(LEASE_SECRET);
        String fromProperty = reader.fromProperty(LEASE_SECRET);
        String fromFile = reader.file.get(LEASE_SECRET);
        if (fromProperty != null) {
            reader.warnings.add(fromEnv != null
                    ? LEASE_SECRET + " is set both as a system property and as " + envName(LEASE_SECRET) + "; using the environment variable"
                    : LEASE_SECRET + " is set as a system property, which every user of this machine can read in the process list;"
                            + " set the environment variable " + envName(LEASE_SECRET) + " instead");
        }
        String secret = fromEnv != null ? fromEnv : fromProperty != null ? fromProperty : fromFile;
        if (secret == null) {
            throw new AgentConfigurationException(LEASE_URL + " needs the lease API's bearer secret: set the environment variable "
                    + envName(LEASE_SECRET) + " (or " + LEASE_SECRET + " in the " + CONFIG + " file, or the system property)");
        }
        if (fromEnv == null && fromProperty == null && reader.file.readableByAll()) {
            reader.warnings.add(LEASE_SECRET + " is in " + reader.file.path() + ", which every user of this machine can read;"
                    + " allow only the application's user (chmod o-r)");
        }
        return secret.trim();
    }

    /** Whether lease requests are signed (aws_iam); only with a leased node, and then never with a secret. */
    private static boolean parseLeaseAuth(Reader reader) {
        String text = reader.get(LEASE_AUTH);
        String mode = text == null ? "bearer" : text.trim().toLowerCase(Locale.ROOT); // the function's AWS_IAM spelling works too
        if (mode.equals("bearer")) {
            return false;
        }
        if (!mode.equals("aws_iam")) {
            throw new AgentConfigurationException(reader.describe(LEASE_AUTH) + " is not a lease auth mode: allowed bearer (the default: "
                    + envName(LEASE_SECRET) + ") or aws_iam (SigV4 with this workload's AWS credentials, snowid-agent-iam.jar)");
        }
        if (reader.get(LEASE_URL) == null) {
            throw new AgentConfigurationException(reader.describe(LEASE_AUTH) + " only applies to a leased node (" + LEASE_URL + ")");
        }
        if (reader.get(LEASE_SECRET) != null) {
            throw new AgentConfigurationException(reader.describe(LEASE_SECRET) + " is set, but " + LEASE_AUTH + "=aws_iam signs lease "
                    + "requests with this workload's AWS credentials and sends no secret: remove it (or use " + LEASE_AUTH + "=bearer)");
        }
        return true;
    }

    /** The region to sign for, when given; checked by the client's own rule for region names. */
    private static String parseLeaseRegion(Reader reader, boolean signed) {
        String text = reader.get(LEASE_REGION);
        if (text == null) {
            return null;
        }
        if (!signed) {
            throw new AgentConfigurationException(reader.describe(LEASE_REGION) + " only applies with " + LEASE_AUTH + "=aws_iam");
        }
        try {
            dev.snowid.client.auth.AwsSigning.defaultCredentials().region(text);
        } catch (IllegalArgumentException e) {
            throw new AgentConfigurationException(reader.describe(LEASE_REGION) + " is invalid: " + e.getMessage());
        }
        return text.trim();
    }

    private static long parseLeaseMillis(Reader reader) {
        String text = reader.get(LEASE_MILLIS);
        if (text == null) {
            return 0;
        }
        if (reader.get(LEASE_URL) == null) {
            if (reader.fromProperty(LEASE_MILLIS) == null && reader.fromEnvironment(LEASE_MILLIS) != null) {
                // The function and its local runner read the same variable: a shell set up for them
                // must not stop a JVM with a fixed node.
                reader.warnings.add(reader.describe(LEASE_MILLIS) + " is ignored: it only applies to a leased node ("
                        + LEASE_URL + "), and a fixed node (" + NODE + ") has no lease");
                return 0;
            }
            throw new AgentConfigurationException(reader.describe(LEASE_MILLIS) + " only applies to a leased node ("
                    + LEASE_URL + "); a fixed node (" + NODE + ") has no lease");
        }
        String allowed = "allowed: a whole number of ms from " + LeaseTerms.MIN_LEASE_MILLIS + " to " + LeaseTerms.MAX_LEASE_MILLIS
                + " (renewals are then scheduled as if the lease lasted that long; default: the duration the lease API grants)";
        long millis;
        try {
            millis = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new AgentConfigurationException(reader.describe(LEASE_MILLIS) + " is not a number; " + allowed);
        }
        if (millis < LeaseTerms.MIN_LEASE_MILLIS || millis > LeaseTerms.MAX_LEASE_MILLIS) {
            throw new AgentConfigurationException(reader.describe(LEASE_MILLIS) + " is out of range; " + allowed);
        }
        return millis;
    }

    private static long parseWaitForSlot(Reader reader) {
        String text = reader.get(WAIT_FOR_SLOT);
        if (text == null) {
            return 0;
        }
        if (reader.get(LEASE_URL) == null) {
            throw new AgentConfigurationException(reader.describe(WAIT_FOR_SLOT) + " only applies to a leased node ("
                    + LEASE_URL + "); a fixed node (" + NODE + ") takes no slot from a pool");
        }
        String allowed = "allowed: a whole number of ms from 0 (the default: exit at once when every slot is held) to "
                + MAX_WAIT_FOR_SLOT_MILLIS + " (wait that long at start-up for a slot to free)";
        long millis;
        try {
            millis = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new AgentConfigurationException(reader.describe(WAIT_FOR_SLOT) + " is not a number; " + allowed);
        }
        if (millis < 0 || millis > MAX_WAIT_FOR_SLOT_MILLIS) {
            throw new AgentConfigurationException(reader.describe(WAIT_FOR_SLOT) + " is out of range; " + allowed);
        }
        return millis;
    }

    /** Presets and {@code Class#method[:kind]} entries, in any mix; a method named twice is redirected once. */
    private static List<Target> parseTargets(Reader reader) {
        String text = reader.get(TARGETS);
        Map<Target, Target> targets = new LinkedHashMap<>();
        for (String part : text == null ? new String[0] : text.split(",")) {
            String entry = part.trim();
            if (entry.isEmpty()) {
                continue;
            }
            List<Target> parsed;
            if (entry.indexOf('#') < 0 && entry.indexOf('.') < 0) {
                Preset preset = Preset.named(entry);
                if (preset == null) {
                    throw new AgentConfigurationException(reader.describe(TARGETS) + ": '" + entry + "' is not a preset: presets are "
                            + Preset.names() + "; a target is " + Target.SYNTAX + ", e.g. com.acme.Ids#next");
                }
                parsed = preset.targets();
            } else {
                parsed = Collections.singletonList(Target.parse(entry, reader.describe(TARGETS)));
            }
            for (Target target : parsed) {
                Target earlier = targets.get(target);
                if (earlier == null) {
                    targets.put(target, target);
                } else if (earlier.kind() != target.kind()) {
                    throw new AgentConfigurationException(reader.describe(TARGETS) + ": " + earlier + " and " + target
                            + " name the same methods with different kinds; name them once");
                }
            }
        }
        if (targets.isEmpty()) {
            throw new AgentConfigurationException("no targets configured: set " + TARGETS + "=<class>#<method>[,<class>#<method>…]"
                    + " (or " + envName(TARGETS) + ", or in the " + CONFIG + " file), the legacy methods whose IDs snowid issues,"
                    + " e.g. -D" + TARGETS + "=com.acme.Ids#next, or presets for known libraries: " + Preset.names());
        }
        if (targets.size() > MAX_TARGETS) {
            throw new AgentConfigurationException(reader.describe(TARGETS) + " names " + targets.size() + " methods: allowed at most " + MAX_TARGETS);
        }
        return Collections.unmodifiableList(new ArrayList<>(targets.keySet()));
    }

    private static Set<Preset> presets(List<Target> targets) {
        Set<Preset> presets = new LinkedHashSet<>();
        for (Target target : targets) {
            if (target.preset() != null) {
                presets.add(target.preset());
            }
        }
        return presets;
    }

    private static SnowflakeCodec parseEpoch(Reader reader) {
        String text = reader.get(EPOCH);
        if (text == null) {
            return SnowflakeCodec.TWITTER;
        }
        String allowed = "allowed: unix milliseconds in the past, e.g. " + SnowflakeCodec.TWITTER_EPOCH_MILLIS
                + " (Twitter's, the default); every reader of the IDs must use the same epoch";
        long epoch;
        try {
            epoch = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new AgentConfigurationException(reader.describe(EPOCH) + " is not a number; " + allowed);
        }
        if (epoch > System.currentTimeMillis()) {
            throw new AgentConfigurationException(reader.describe(EPOCH) + " is in the future: no ID could be issued; " + allowed);
        }
        try {
            return SnowflakeCodec.withEpoch(epoch);
        } catch (IllegalArgumentException e) {
            throw new AgentConfigurationException(reader.describe(EPOCH) + " is invalid: " + e.getMessage() + "; " + allowed);
        }
    }

    /** The fixed node, or null when the node is leased. */
    public Slot node() {
        return node;
    }

    /** The lease API's base URL, or null for a fixed node. */
    public URL leaseUrl() {
        return leaseUrl;
    }

    /** The bearer secret; null when requests are signed ({@link #leaseSigned()}) or the node is fixed. */
    public String leaseSecret() {
        return leaseSecret;
    }

    /** Whether lease requests are signed with AWS SigV4 ({@value #LEASE_AUTH}=aws_iam). */
    public boolean leaseSigned() {
        return leaseSigned;
    }

    /** The region to sign for ({@value #LEASE_REGION}); null: from the lease URL's host. */
    public String leaseRegion() {
        return leaseRegion;
    }

    /** The lease duration to plan renewals with; 0: the duration the lease API grants. */
    public long leaseMillis() {
        return leaseMillis;
    }

    /** How long start-up waits for a slot when the pool is full; 0: not at all. */
    public long waitForSlotMillis() {
        return waitForSlotMillis;
    }

    public List<Target> targets() {
        return targets;
    }

    /** The configured epoch's codec, or Twitter's when none is configured (a leased node then adopts the lease API's). */
    public SnowflakeCodec codec() {
        return codec;
    }

    /** Whether {@value #EPOCH} is set: a leased node then refuses a lease API with another epoch, else adopts the API's. */
    public boolean epochConfigured() {
        return epochConfigured;
    }

    UnavailablePolicy onUnavailable() {
        return onUnavailable;
    }

    /** Whether to register the {@code dev.snowid:type=Agent} MBean (default true). */
    public boolean jmx() {
        return jmx;
    }

    private static boolean parseJmx(Reader reader) {
        String text = reader.get(JMX);
        if (text == null || text.equals("true")) {
            return true;
        }
        if (text.equals("false")) {
            return false;
        }
        throw new AgentConfigurationException(reader.describe(JMX) + " is not a switch: allowed true (the default: register the"
                + " MBean dev.snowid:type=Agent) or false");
    }

    public List<String> warnings() {
        return warnings;
    }

    /** One line for the start-up log, with the codec IDs are issued with; never shows the secret. */
    String summary(SnowflakeCodec issuing) {
        Set<Preset> presets = presets(targets);
        StringBuilder names = new StringBuilder();
        for (Preset preset : presets) {
            names.append(names.length() == 0 ? "" : ", ").append(preset.presetName());
        }
        return (node != null ? "node " + node : "leased node from " + leaseUrl)
                + ", epoch " + issuing.epochMillis() + (node == null && !epochConfigured ? " (the lease API's)" : "")
                + ", onUnavailable=" + onUnavailable + ", " + targets.size() + " target(s)"
                + (presets.isEmpty() ? "" : " (presets: " + names + ")");
    }

    /**
     * Warnings for presets whose library issues IDs of another shape than snowid will with
     * {@code issuing} (known only once a lease says which epoch, unless {@code snowid.epoch} is set).
     */
    List<String> presetShapeWarnings(SnowflakeCodec issuing) {
        List<String> shapes = new ArrayList<>();
        for (Preset preset : presets(targets)) {
            String shape = preset.shapeWarning(issuing);
            if (shape != null) {
                shapes.add(shape);
            }
        }
        return shapes;
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

    /** Looks up a setting: the system property first, then its environment variable, then the file. */
    private static final class Reader {
        final Properties systemProperties;
        final Map<String, String> environment;
        final ConfigFile file;
        final List<String> warnings = new ArrayList<>();

        Reader(Properties systemProperties, Map<String, String> environment, ConfigFile file) {
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
                    warnings.add("unknown key " + key + " in " + file.path() + " is ignored; the agent reads " + ALL);
                }
            }
        }

        void warnAboutUnknownProperties() {
            for (String name : systemProperties.stringPropertyNames()) {
                if (name.startsWith("snowid.") && !ALL.contains(name)) {
                    warnings.add("unknown system property " + name + " is ignored; the agent reads " + ALL);
                }
            }
        }

        /** One line per {@code SNOWID_*} variable the agent does not read, naming its equivalent where there is one. */
        void warnAboutUnknownEnvironmentVariables() {
            Set<String> known = new LinkedHashSet<>();
            for (String property : ALL) {
                known.add(envName(property));
            }
            for (String name : new TreeSet<>(environment.keySet())) {
                if (!name.startsWith("SNOWID_") || known.contains(name)) {
                    continue;
                }
                String equivalent = EQUIVALENTS.get(name);
                warnings.add("environment variable " + name + " is ignored: " + (equivalent != null ? equivalent
                        : "it is not an agent setting (the snowid function's settings do not apply to the agent); the agent reads "
                                + known));
            }
        }
    }
}
