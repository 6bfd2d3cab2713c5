package dev.snowid.agent.config;

import dev.snowid.client.ClientSettings;
import dev.snowid.client.auth.AwsSigning;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.protocol.LeaseAuthMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Every setting of the agent, declared once ({@link #CATALOGUE}): a property, also read as its
 * environment variable (upper-case, dots become {@code _}: {@code snowid.lease.url} ⇔
 * {@code SNOWID_LEASE_URL}) and as a key of the properties file. {@link SettingSource} finds the
 * values, {@link AgentSettings} reads them through these declarations, "only with
 * {@code snowid.lease.url}" included ({@link Setting#onlyWith}).
 */
public final class AgentProperties {

    public static final String NODE = "snowid.node";
    public static final String LEASE_URL = "snowid.lease.url";
    public static final String LEASE_SECRET = "snowid.lease.secret";
    /** With the secret: whether plain http to a host that is not loopback is allowed (a runner reached by a compose service name). */
    public static final String LEASE_ALLOW_PLAIN_HTTP = "snowid.lease.allowPlainHttp";
    /** {@code bearer} (the secret) or {@code aws_iam} (SigV4 with the workload's AWS credentials; snowid-agent-iam.jar). */
    public static final String LEASE_AUTH = "snowid.lease.auth";
    /** With {@code aws_iam}: the API's region, when the lease URL's host does not name it (a custom domain). */
    public static final String LEASE_REGION = "snowid.lease.region";
    public static final String LEASE_MILLIS = "snowid.lease.millis";
    public static final String WAIT_FOR_SLOT = "snowid.lease.waitForSlot";
    public static final String STARTUP_DEADLINE = "snowid.lease.startupDeadline";
    /** Whether the lease's audit lines are printed; by default not (the agent's stderr has no level below INFO). */
    public static final String LEASE_AUDIT_AT_INFO = "snowid.lease.auditAtInfo";
    public static final String TARGETS = "snowid.targets";
    public static final String EPOCH = "snowid.epoch";
    public static final String ON_UNAVAILABLE = "snowid.onUnavailable";
    public static final String JMX = "snowid.jmx";
    public static final String CONFIG = "snowid.config";

    static final Setting<String> NODE_SETTING = property(NODE)
            .allowed("<datacenter>:<machine>, each 0 to 31", "0", "31")
            .means("a fixed node; exactly one of snowid.node and snowid.lease.url");
    static final Setting<String> LEASE_URL_SETTING = property(LEASE_URL)
            .allowed("the base URL of the snowid lease API, https://… (http:// to loopback; to another host only with aws_iam,"
                    + " warned about, or with snowid.lease.allowPlainHttp=true)")
            .means("a leased node: the lease API's base URL");
    /** What a leased node's settings only apply with. */
    private static final String LEASED = "to a leased node (" + LEASE_URL + ")";
    public static final Setting<LeaseAuthMode> LEASE_AUTH_SETTING = property(LEASE_AUTH).parsedBy(new Setting.Parser<LeaseAuthMode>() {
        @Override
        public LeaseAuthMode parse(String text) {
            return LeaseAuthMode.parse(text);
        }
    }).byDefault(LeaseAuthMode.BEARER.value()).allowed(LeaseAuthMode.ALLOWED, "aws_iam", "bearer")
            .onlyWith(LEASE_URL_SETTING, LEASED).aloneAtDefault()
            .means("how lease requests prove who sends them; only with snowid.lease.url");
    public static final Setting<String> LEASE_REGION_SETTING = property(LEASE_REGION).parsedBy(new Setting.Parser<String>() {
        @Override
        public String parse(String text) {
            AwsSigning.defaultCredentials().region(text); // the client's own rule for region names
            return text;
        }
    }).unsetMeans("from the lease URL's host").onlyWith(LEASE_AUTH_SETTING, LeaseAuthMode.AWS_IAM, "with " + LEASE_AUTH + "=aws_iam")
            .means("the lease API's AWS region, only with aws_iam; needed when the lease URL is a custom domain");
    public static final Setting<String> LEASE_SECRET_SETTING = property(LEASE_SECRET).secret()
            .means("the lease API's bearer secret; required with snowid.lease.url in bearer mode, refused with aws_iam");
    public static final Setting<Boolean> LEASE_ALLOW_PLAIN_HTTP_SETTING = property(LEASE_ALLOW_PLAIN_HTTP).asSwitch().byDefault("false")
            .onlyWith(LEASE_URL_SETTING, LEASED).aloneAtDefault()
            .means("true: send the secret over plain http to a host that is not loopback (a runner reached by a compose service"
                    + " name, on a network you trust); else refused");
    static final Setting<Long> LEASE_MILLIS_SETTING = property(LEASE_MILLIS).in(LeaseTerms.LEASE_MILLIS_RANGE)
            .unsetMeans("the duration the API grants").onlyWith(LEASE_URL_SETTING, LEASED + "; a fixed node (" + NODE + ") has no lease")
            .means("plan renewals as if the lease lasted this long, never longer than granted; only with snowid.lease.url");
    static final Setting<Long> WAIT_FOR_SLOT_SETTING = property(WAIT_FOR_SLOT).in(ClientSettings.Ranges.WAIT_FOR_SLOT).byDefault("0")
            .onlyWith(LEASE_URL_SETTING, LEASED + "; a fixed node (" + NODE + ") takes no slot from a pool")
            .means("when every slot of the pool is held at start-up, wait up to this long for one to free; only with snowid.lease.url");
    public static final Setting<Long> STARTUP_DEADLINE_SETTING = property(STARTUP_DEADLINE).in(ClientSettings.Ranges.STARTUP_DEADLINE)
            .byDefault(Long.toString(ClientSettings.DEFAULT_STARTUP_DEADLINE_MILLIS))
            .onlyWith(LEASE_URL_SETTING, LEASED + "; a fixed node (" + NODE + ") asks the lease API nothing")
            .means("how long start-up asks again, with the same request id, when the lease API gave no answer or one that"
                    + " settles nothing; only with snowid.lease.url");
    static final Setting<Boolean> LEASE_AUDIT_AT_INFO_SETTING = property(LEASE_AUDIT_AT_INFO).asSwitch().byDefault("false")
            .onlyWith(LEASE_URL_SETTING, LEASED).aloneAtDefault()
            .means("true: print every lease grant, renewal, release and loss as an audit line; else none; only with snowid.lease.url");
    static final Setting<String> TARGETS_SETTING = property(TARGETS).unsetMeans("required")
            .allowed("comma-separated " + Target.SYNTAX + " entries and presets", "hutool", "mybatis-plus")
            .means("the legacy methods whose IDs snowid issues");
    static final Setting<String> EPOCH_SETTING = property(EPOCH)
            .unsetMeans("a fixed node: 1288834974657 (Twitter's); a leased node: the lease API's")
            .allowed("unix ms in the past")
            .means("the epoch IDs count from; every reader of the IDs must use the same");
    static final Setting<String> ON_UNAVAILABLE_SETTING = property(ON_UNAVAILABLE).byDefault("throw")
            .allowed(UnavailablePolicy.ALLOWED, "throw", "wait:", "1", Long.toString(UnavailablePolicy.MAX_WAIT_MILLIS))
            .means("what a redirected method does when no ID can be issued");
    static final Setting<Boolean> JMX_SETTING = property(JMX).asSwitch().byDefault("true")
            .means("whether to register the MBean dev.snowid:type=Agent");
    static final Setting<String> CONFIG_SETTING = property(CONFIG)
            .allowed("a path, absolute or relative to the working directory")
            .means("the path of the agent's properties file; the agent argument names it too, and wins");

    /** The agent's settings: the one declaration of each. */
    public static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the agent", NODE_SETTING, LEASE_URL_SETTING,
            LEASE_AUTH_SETTING, LEASE_REGION_SETTING, LEASE_SECRET_SETTING, LEASE_ALLOW_PLAIN_HTTP_SETTING,
            LEASE_MILLIS_SETTING, WAIT_FOR_SLOT_SETTING,
            STARTUP_DEADLINE_SETTING, LEASE_AUDIT_AT_INFO_SETTING, TARGETS_SETTING, EPOCH_SETTING, ON_UNAVAILABLE_SETTING, JMX_SETTING, CONFIG_SETTING)
            // The snowid function's variables (or mistyped ones) whose meaning the agent has under another name.
            .withHint("SNOWID_EPOCH_MILLIS", "the agent reads " + EPOCH + " / " + envName(EPOCH))
            .withHint("SNOWID_LEASE_SECRET_SHA256", "it is the function's hash of the secret; the agent reads the secret itself from "
                    + envName(LEASE_SECRET))
            .withHint("SNOWID_LEASE_PRINCIPALS", "it is the function's list of the roles that may lease; the agent signs as this "
                    + "workload's role with " + LEASE_AUTH + "=aws_iam")
            .withHint("SNOWID_ON_UNAVAILABLE", "the agent reads " + ON_UNAVAILABLE + " / " + envName(ON_UNAVAILABLE))
            .withHint("SNOWID_TARGET", "the agent reads " + TARGETS + " / " + envName(TARGETS));

    /** Every property, in declaration order. */
    public static final List<String> ALL = names(false);
    /** Every property's environment variable, in declaration order. */
    static final List<String> VARIABLES = names(true);

    private AgentProperties() {
    }

    /** {@code snowid.lease.url} → {@code SNOWID_LEASE_URL}. */
    public static String envName(String property) {
        return property.replace('.', '_').toUpperCase(Locale.ROOT);
    }

    private static Setting<String> property(String name) {
        return Setting.named(name).alsoNamed(envName(name));
    }

    private static List<String> names(boolean variables) {
        List<String> names = new ArrayList<>();
        for (Setting<?> setting : CATALOGUE.settings()) {
            names.add(setting.names().get(variables ? 1 : 0));
        }
        return Collections.unmodifiableList(names);
    }
}
