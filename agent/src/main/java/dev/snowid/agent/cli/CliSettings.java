package dev.snowid.agent.cli;

import dev.snowid.WallClock;
import dev.snowid.agent.config.AgentProperties;
import dev.snowid.agent.runtime.IamSigning;
import dev.snowid.client.BearerSecretStrength;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.auth.BearerSecret;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.internal.SettingValues;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import java.net.URL;
import java.util.List;
import java.util.Map;

/**
 * The settings of the agent jar's commands that call the lease API ({@code leases}, {@code check}),
 * derived from the agent's ({@link AgentProperties}: the same variables, defaults and rules), and
 * the one place their credentials come from. Environment variables only: a secret given as an
 * argument would show in {@code ps} and in shell history.
 */
final class CliSettings {

    static final String SECRET_VARIABLE = AgentProperties.envName(AgentProperties.LEASE_SECRET);
    static final String AUTH_VARIABLE = AgentProperties.envName(AgentProperties.LEASE_AUTH);
    static final String REGION_VARIABLE = AgentProperties.envName(AgentProperties.LEASE_REGION);
    static final String STARTUP_DEADLINE_VARIABLE = AgentProperties.envName(AgentProperties.STARTUP_DEADLINE);
    static final String ALLOW_PLAIN_HTTP_VARIABLE = AgentProperties.envName(AgentProperties.LEASE_ALLOW_PLAIN_HTTP);

    // The agent's settings, read under their environment variables; only what they mean to a command is its own.
    private static final Setting<String> SECRET = AgentProperties.LEASE_SECRET_SETTING.under(SECRET_VARIABLE)
            .means("the lease API's bearer secret; required in bearer mode");
    private static final Setting<LeaseAuthMode> AUTH = AgentProperties.LEASE_AUTH_SETTING.under(AUTH_VARIABLE)
            .means("aws_iam signs with this machine's AWS credentials (snowid-agent-iam.jar) instead of sending the secret");
    private static final Setting<String> REGION = AgentProperties.LEASE_REGION_SETTING.under(REGION_VARIABLE)
            .means("the lease API's AWS region, with aws_iam; needed when the lease URL is a custom domain");
    private static final Setting<Boolean> ALLOW_PLAIN_HTTP = AgentProperties.LEASE_ALLOW_PLAIN_HTTP_SETTING.under(ALLOW_PLAIN_HTTP_VARIABLE);
    static final Setting<Long> STARTUP_DEADLINE = AgentProperties.STARTUP_DEADLINE_SETTING.under(STARTUP_DEADLINE_VARIABLE)
            .means("check: how long its lease step asks again, with the same request id, when the API gave no answer or one"
                    + " that settles nothing");

    /** The commands' settings: derived, each, from the agent's one declaration. */
    static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the agent's CLI", SECRET, AUTH, REGION, ALLOW_PLAIN_HTTP,
            STARTUP_DEADLINE)
            .withHint("SNOWID_LEASE_URL", "the commands take the lease URL as their argument");

    /** {@code SNOWID_LEASE_AUTH='iam' is not a lease auth mode; allowed …}: the variable and its value named once, a secret's never. */
    private static final SettingValues.Refusals REFUSALS = new SettingValues.Refusals() {
        @Override
        public RuntimeException invalid(Setting<?> setting, String text, String reason) {
            String quoted = "'" + text + "' ";
            return new IllegalArgumentException(setting.shown(setting.name(), text) + (reason.startsWith(quoted)
                    ? " " + reason.substring(quoted.length()) : reason.startsWith("is ") ? " " + reason : " is invalid: " + reason));
        }

        @Override
        public RuntimeException inapplicable(Setting<?> setting, String text, String onlyApplies) {
            return new IllegalArgumentException(setting.shown(setting.name(), text) + " " + onlyApplies);
        }
    };

    private CliSettings() {
    }

    /** {@code env}'s values of the commands' settings, read when a command needs them; empty counts as unset. */
    static SettingValues values(final Map<String, String> env) {
        return SettingValues.of(CATALOGUE, new SettingValues.Source() {
            @Override
            public String text(Setting<?> setting) {
                String text = env.get(setting.name());
                return text == null ? null : text.trim();
            }
        }, REFUSALS);
    }

    /**
     * How requests are authorized: {@code bearer} unless {@value #AUTH_VARIABLE} says otherwise.
     *
     * @throws IllegalArgumentException it names no mode
     */
    static LeaseAuthMode mode(Map<String, String> env) {
        return values(env).get(AUTH);
    }

    /** One line per {@code SNOWID_*} variable of {@code env} the commands do not read. */
    static List<String> warnings(Map<String, String> env) {
        return CATALOGUE.unknownNames("environment variable", env.keySet(), "SNOWID_");
    }

    /**
     * The lease API at {@code url}, its requests authorized as {@code env} says: signed with this
     * machine's AWS credentials ({@code aws_iam}), else with the bearer secret.
     *
     * @param needs what the command needs the API for, for the message when no credentials are set
     * @throws IllegalArgumentException a setting is missing or wrong: the message names it
     */
    static HttpLeaseSource leaseApi(Map<String, String> env, URL url, String holder, String needs) {
        SettingValues values = values(env);
        if (values.get(AUTH) == LeaseAuthMode.AWS_IAM) {
            String region = values.get(REGION);
            try {
                return new HttpLeaseSource(url, IamSigning.forRegion(region).authorizerFor(url), holder, WallClock.SYSTEM);
            } catch (RuntimeException e) { // no SDK in this jar, a bad region
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        String secret = values.get(SECRET);
        if (secret == null) {
            throw new IllegalArgumentException(SECRET_VARIABLE + " is not set: " + needs + " the lease API's bearer secret (or "
                    + AUTH_VARIABLE + "=aws_iam with snowid-agent-iam.jar)");
        }
        HttpUrl.requireSafeForSecret(url, "'" + HttpUrl.shown(url.toString()) + "'", values.get(ALLOW_PLAIN_HTTP),
                ALLOW_PLAIN_HTTP_VARIABLE + "=true");
        // Judged as the agent judges its own: a command holds the secret in clear too.
        return new HttpLeaseSource(url, BearerSecret.fixed(BearerSecretStrength.requireStrong("the environment variable " + SECRET_VARIABLE,
                secret)), holder);
    }
}
