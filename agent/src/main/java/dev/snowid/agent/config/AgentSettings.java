package dev.snowid.agent.config;

import static dev.snowid.agent.config.AgentProperties.CONFIG;
import static dev.snowid.agent.config.AgentProperties.EPOCH;
import static dev.snowid.agent.config.AgentProperties.LEASE_ALLOW_PLAIN_HTTP;
import static dev.snowid.agent.config.AgentProperties.LEASE_AUTH;
import static dev.snowid.agent.config.AgentProperties.LEASE_MILLIS;
import static dev.snowid.agent.config.AgentProperties.LEASE_REGION;
import static dev.snowid.agent.config.AgentProperties.LEASE_SECRET;
import static dev.snowid.agent.config.AgentProperties.LEASE_URL;
import static dev.snowid.agent.config.AgentProperties.NODE;
import static dev.snowid.agent.config.AgentProperties.ON_UNAVAILABLE;
import static dev.snowid.agent.config.AgentProperties.TARGETS;
import static dev.snowid.agent.config.AgentProperties.envName;

import dev.snowid.Slot;
import dev.snowid.SnowflakeCodec;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingValues;
import dev.snowid.internal.WarningCode;
import dev.snowid.internal.WholeNumber;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;

/**
 * Every setting of the agent ({@link AgentProperties}), parsed and checked in one place. Where a
 * value comes from (a system property, else its environment variable, else the properties file
 * {@code snowid.config} or the agent argument names) is {@link SettingSource}'s business. An
 * empty value counts as not set, as in the function. Anything wrong is an
 * {@link AgentConfigurationException} naming the property and what is allowed; things that work
 * but are unwise become {@link #warnings()}.
 */
public final class AgentSettings {

    /** Far more than any application has; the redirected bodies push the index as a short. */
    static final int MAX_TARGETS = 1000;

    private final SettingValues values;
    private final Slot node;
    private final URL leaseUrl;
    private final String leaseSecret;
    private final List<Target> targets;
    private final SnowflakeCodec codec;
    private final boolean epochConfigured;
    private final UnavailablePolicy onUnavailable;
    private final List<String> warnings;

    private AgentSettings(SettingSource reader) {
        boolean leaseMillisIgnored = leaseMillisIgnored(reader);
        this.values = values(reader, leaseMillisIgnored);
        String nodeText = reader.get(NODE);
        String urlText = reader.get(LEASE_URL);
        if (nodeText == null && urlText == null) {
            throw new AgentConfigurationException(typoFirst(reader, NODE, LEASE_URL) + "no node configured: set " + NODE + "=<datacenter>:<machine> (a fixed node, each 0 to 31,"
                    + " e.g. -D" + NODE + "=7:13) or " + LEASE_URL + "=<base URL of the snowid lease API> (a node leased at start-up);"
                    + " environment variables " + envName(NODE) + " / " + envName(LEASE_URL) + " work too");
        }
        if (nodeText != null && urlText != null) {
            throw new AgentConfigurationException(reader.describe(NODE) + " and " + reader.describe(LEASE_URL)
                    + " are both set: choose one, a fixed node or a leased one");
        }
        this.node = nodeText == null ? null : parseNode(reader, nodeText);
        this.leaseUrl = urlText == null ? null : parseUrl(reader, urlText);
        if (leaseSigned() && values.isSet(AgentProperties.LEASE_SECRET_SETTING)) {
            throw new AgentConfigurationException(reader.describe(LEASE_SECRET) + " is set, but " + LEASE_AUTH + "=aws_iam signs lease "
                    + "requests with this workload's AWS credentials and sends no secret: remove it (or use " + LEASE_AUTH + "=bearer)");
        }
        values.get(AgentProperties.LEASE_ALLOW_PLAIN_HTTP_SETTING); // both refused before the URL's checks, as they always were
        values.get(AgentProperties.LEASE_AUDIT_AT_INFO_SETTING);
        if (leaseUrl != null) {
            checkPlainHttp(reader, leaseUrl, leaseSigned(), allowPlainHttp());
        }
        this.leaseSecret = leaseUrl == null || leaseSigned() ? null : reader.leaseSecret();
        values.get(AgentProperties.LEASE_REGION_SETTING);
        if (leaseMillisIgnored) {
            // The function and its local runner read the same variable: a shell set up for them
            // must not stop a JVM with a fixed node.
            reader.warnings.add(WarningCode.IGNORED_SETTING.tag(reader.describe(LEASE_MILLIS) + " is ignored: it only applies to a"
                    + " leased node (" + LEASE_URL + "), and a fixed node (" + NODE + ") has no lease"));
        }
        values.get(AgentProperties.LEASE_MILLIS_SETTING);
        values.get(AgentProperties.WAIT_FOR_SLOT_SETTING);
        values.get(AgentProperties.STARTUP_DEADLINE_SETTING);
        this.targets = parseTargets(reader);
        this.codec = parseEpoch(reader);
        this.epochConfigured = reader.get(EPOCH) != null;
        this.onUnavailable = UnavailablePolicy.parse(reader.get(ON_UNAVAILABLE), reader.describe(ON_UNAVAILABLE));
        values.checkAll(); // the rest, in the catalogue's order: a new setting needs no line here
        reader.warnAboutUnknownNames();
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
        return new AgentSettings(SettingSource.of(systemProperties, environment, agentArguments));
    }

    /** A missing required setting's probable typo, as the message's first sentence; empty when there is none. */
    private static String typoFirst(SettingSource reader, String... required) {
        for (String property : required) {
            String typo = reader.misspelt(property);
            if (typo != null) {
                return typo + " Otherwise: ";
            }
        }
        return "";
    }

    /**
     * The agent's settings as its sources hold them, trimmed; a refusal names the setting where it
     * came from ({@link SettingSource#describe}). {@code snowid.lease.millis} from the environment
     * alone is not read on a fixed node: warned about instead.
     */
    private static SettingValues values(final SettingSource reader, final boolean leaseMillisIgnored) {
        return SettingValues.of(AgentProperties.CATALOGUE, new SettingValues.Source() {
            @Override
            public String text(Setting<?> setting) {
                String text = reader.get(setting.name());
                return text == null || (leaseMillisIgnored && setting == AgentProperties.LEASE_MILLIS_SETTING) ? null : text.trim();
            }
        }, new SettingValues.Refusals() {
            @Override
            public RuntimeException invalid(Setting<?> setting, String text, String reason) {
                return AgentSettings.invalid(reader, setting.name(), text, reason);
            }

            @Override
            public RuntimeException inapplicable(Setting<?> setting, String text, String onlyApplies) {
                return new AgentConfigurationException(reader.describe(setting.name()) + " " + onlyApplies);
            }
        });
    }

    /** Set in the environment alone for a fixed node: the function's and the runner's variable, not meant for this JVM. */
    private static boolean leaseMillisIgnored(SettingSource reader) {
        return reader.get(LEASE_URL) == null && reader.fromProperty(LEASE_MILLIS) == null && reader.fromEnvironment(LEASE_MILLIS) != null;
    }

    /**
     * {@code snowid.lease.millis='4999' is out of range; allowed …}: the value named once, where it
     * came from; {@code snowid.jmx='no' is not a switch …} when the reason goes on from the name;
     * {@code snowid.node='7:32' is invalid: machine 32 …} when the reason does not quote it.
     */
    private static AgentConfigurationException invalid(SettingSource reader, String property, String text, String reason) {
        String quoted = "'" + text.trim() + "' ";
        return new AgentConfigurationException(reader.describe(property) + (reason.startsWith(quoted) ? " " + reason.substring(quoted.length())
                : reason.startsWith("is ") ? " " + reason : " is invalid: " + reason));
    }

    /** {@code setting}'s value, or its default when unset; checked at start-up. A new setting needs no accessor of its own. */
    public <T> T get(Setting<T> setting) {
        return values.get(setting);
    }

    private static Slot parseNode(SettingSource reader, String text) {
        try {
            return Slot.parse(text.trim());
        } catch (IllegalArgumentException e) {
            throw new AgentConfigurationException(reader.describe(NODE) + " is invalid: " + e.getMessage());
        }
    }

    private static URL parseUrl(SettingSource reader, String text) {
        URL url;
        try {
            url = HttpUrl.parse(text.trim());
        } catch (IllegalArgumentException e) {
            // Quoted as HttpUrl shows a URL: a secret typed in its place, or in its user information or query, stays unseen.
            throw new AgentConfigurationException(reader.describeUrl(LEASE_URL) + " " + e.getMessage() + "; allowed "
                    + AgentProperties.LEASE_URL_SETTING.allowed() + ", e.g. https://abc123.execute-api.eu-west-1.amazonaws.com");
        }
        return url;
    }

    /** The secret never crosses the network in clear unless the operator said so; signed requests, which carry none, are warned about. */
    private static void checkPlainHttp(SettingSource reader, URL url, boolean signed, boolean allowed) {
        if (!signed) {
            try {
                HttpUrl.requireSafeForSecret(url, reader.describeUrl(LEASE_URL), allowed, LEASE_ALLOW_PLAIN_HTTP + "=true (or "
                        + envName(LEASE_ALLOW_PLAIN_HTTP) + "=true)");
            } catch (IllegalArgumentException e) {
                throw new AgentConfigurationException(e.getMessage());
            }
        }
        if (url.getProtocol().equals("http") && !HttpUrl.isLoopback(url)) {
            reader.warnings.add(WarningCode.UNENCRYPTED_LEASE_URL.tag(LEASE_URL + " uses plain http to " + url.getHost()
                    + ": lease requests travel unencrypted; use https"));
        }
    }

    /** Presets and {@code Class#method[:kind]} entries, in any mix; a method named twice is redirected once. */
    private static List<Target> parseTargets(SettingSource reader) {
        String text = reader.get(TARGETS);
        String described = text == null ? null : reader.describe(TARGETS); // once, not per entry
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
                    String closest = AgentProperties.CATALOGUE.closest(entry, Preset.names());
                    throw new AgentConfigurationException(described + ": '" + entry + "' is not a preset: presets are "
                            + Preset.names() + (closest != null ? " (did you mean `" + closest + "`?)" : "") + "; a target is "
                            + Target.SYNTAX + ", e.g. com.acme.Ids#next");
                }
                parsed = preset.targets();
            } else {
                parsed = Collections.singletonList(Target.parse(entry, described));
            }
            for (Target target : parsed) {
                Target earlier = targets.get(target);
                if (earlier == null) {
                    targets.put(target, target);
                } else if (earlier.kind() != target.kind()) {
                    throw new AgentConfigurationException(described + ": " + earlier + " and " + target
                            + " name the same methods with different kinds; name them once");
                }
            }
        }
        if (targets.isEmpty()) {
            throw new AgentConfigurationException(typoFirst(reader, TARGETS) + "no targets configured: set " + TARGETS + "=<class>#<method>[,<class>#<method>…]"
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

    private static SnowflakeCodec parseEpoch(SettingSource reader) {
        String text = reader.get(EPOCH);
        if (text == null) {
            return SnowflakeCodec.TWITTER;
        }
        String allowed = "allowed: unix milliseconds in the past, e.g. " + SnowflakeCodec.TWITTER_EPOCH_MILLIS
                + " (Twitter's, the default); every reader of the IDs must use the same epoch";
        OptionalLong epoch = WholeNumber.parse(text.trim());
        if (!epoch.isPresent()) {
            throw new AgentConfigurationException(reader.describe(EPOCH) + " is not a whole number; " + allowed);
        }
        try {
            return SnowflakeCodec.withPastEpoch(epoch.getAsLong(), System.currentTimeMillis());
        } catch (IllegalArgumentException e) {
            throw invalid(reader, EPOCH, text, e.getMessage() + "; " + allowed);
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

    /** Whether lease requests are signed with AWS SigV4 ({@value AgentProperties#LEASE_AUTH}=aws_iam). */
    public boolean leaseSigned() {
        return values.get(AgentProperties.LEASE_AUTH_SETTING) == LeaseAuthMode.AWS_IAM;
    }

    /** Whether the secret may go over plain http to a host that is not loopback ({@value AgentProperties#LEASE_ALLOW_PLAIN_HTTP}). */
    public boolean allowPlainHttp() {
        return values.get(AgentProperties.LEASE_ALLOW_PLAIN_HTTP_SETTING);
    }

    /** Whether the lease's audit lines are printed ({@value AgentProperties#LEASE_AUDIT_AT_INFO}). */
    public boolean auditAtInfo() {
        return values.get(AgentProperties.LEASE_AUDIT_AT_INFO_SETTING);
    }

    /** The region to sign for ({@value AgentProperties#LEASE_REGION}); null: from the lease URL's host. */
    public String leaseRegion() {
        return values.get(AgentProperties.LEASE_REGION_SETTING);
    }

    /** The lease duration to plan renewals with; 0: the duration the lease API grants. */
    public long leaseMillis() {
        Long millis = values.get(AgentProperties.LEASE_MILLIS_SETTING);
        return millis == null ? 0 : millis;
    }

    /** How long start-up waits for a slot when the pool is full; 0: not at all. */
    public long waitForSlotMillis() {
        return values.get(AgentProperties.WAIT_FOR_SLOT_SETTING);
    }

    /** How long start-up asks the lease API again after no settled answer, with the same request id. */
    public long startupDeadlineMillis() {
        return values.get(AgentProperties.STARTUP_DEADLINE_SETTING);
    }

    public List<Target> targets() {
        return targets;
    }

    /** The configured epoch's codec, or Twitter's when none is configured (a leased node then adopts the lease API's). */
    public SnowflakeCodec codec() {
        return codec;
    }

    /** Whether {@value AgentProperties#EPOCH} is set: a leased node then refuses a lease API with another epoch, else adopts the API's. */
    public boolean epochConfigured() {
        return epochConfigured;
    }

    public UnavailablePolicy onUnavailable() {
        return onUnavailable;
    }

    /** Whether to register the {@code dev.snowid:type=Agent} MBean (default true). */
    public boolean jmx() {
        return values.get(AgentProperties.JMX_SETTING);
    }

    public List<String> warnings() {
        return warnings;
    }

    /** One line for the start-up log, with the codec IDs are issued with; never shows the secret. */
    public String summary(SnowflakeCodec issuing) {
        Set<Preset> presets = presets(targets);
        StringBuilder names = new StringBuilder();
        for (Preset preset : presets) {
            names.append(names.length() == 0 ? "" : ", ").append(preset.presetName());
        }
        return (node != null ? "node " + node : "leased node from " + HttpUrl.shown(leaseUrl.toString()))
                + ", epoch " + issuing.epochMillis() + (node == null && !epochConfigured ? " (the lease API's)" : "")
                + ", onUnavailable=" + onUnavailable + ", " + targets.size() + " target(s)"
                + (presets.isEmpty() ? "" : " (presets: " + names + ")");
    }

    /**
     * Warnings for presets whose library issues IDs of another shape than snowid will with
     * {@code issuing} (known only once a lease says which epoch, unless {@code snowid.epoch} is set).
     */
    public List<String> presetShapeWarnings(SnowflakeCodec issuing) {
        List<String> shapes = new ArrayList<>();
        for (Preset preset : presets(targets)) {
            String shape = preset.shapeWarning(issuing);
            if (shape != null) {
                shapes.add(shape);
            }
        }
        return shapes;
    }
}
