package dev.snowid.agent.cli;

import dev.snowid.WallClock;
import dev.snowid.agent.runtime.IamSigning;
import dev.snowid.client.BearerSecretStrength;
import dev.snowid.client.ClientSettings;
import dev.snowid.client.HttpLeaseSource;
import dev.snowid.client.auth.BearerSecret;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import java.net.URL;
import java.util.List;
import java.util.Map;

/**
 * The settings of the agent jar's commands that call the lease API ({@code leases}, {@code check}),
 * declared once ({@link #CATALOGUE}), and the one place their credentials come from. Environment
 * variables only: a secret given as an argument would show in {@code ps} and in shell history.
 */
final class CliSettings {

    static final String SECRET_VARIABLE = "SNOWID_LEASE_SECRET";
    static final String AUTH_VARIABLE = "SNOWID_LEASE_AUTH";
    static final String REGION_VARIABLE = "SNOWID_LEASE_REGION";
    static final String STARTUP_DEADLINE_VARIABLE = "SNOWID_LEASE_STARTUPDEADLINE";
    static final String ALLOW_PLAIN_HTTP_VARIABLE = "SNOWID_LEASE_ALLOWPLAINHTTP";

    private static final Setting<String> SECRET = Setting.named(SECRET_VARIABLE).secret()
            .means("the lease API's bearer secret; required in bearer mode");
    private static final Setting<LeaseAuthMode> AUTH = Setting.named(AUTH_VARIABLE).parsedBy(new Setting.Parser<LeaseAuthMode>() {
        @Override
        public LeaseAuthMode parse(String text) {
            return LeaseAuthMode.parse(text);
        }
    }).byDefault(LeaseAuthMode.BEARER.value()).allowed(LeaseAuthMode.ALLOWED, "bearer", "aws_iam")
            .means("aws_iam signs with this machine's AWS credentials (snowid-agent-iam.jar) instead of sending the secret");
    private static final Setting<String> REGION = Setting.named(REGION_VARIABLE).unsetMeans("from the lease URL's host")
            .means("the lease API's AWS region, with aws_iam; needed when the lease URL is a custom domain");

    private static final Setting<String> ALLOW_PLAIN_HTTP = Setting.named(ALLOW_PLAIN_HTTP_VARIABLE).byDefault("false")
            .allowed("true or false", "true", "false")
            .means("true: send the secret over plain http to a host that is not loopback (a runner reached by a compose service"
                    + " name, on a network you trust); else refused");

    private static final Setting<Long> STARTUP_DEADLINE = Setting.named(STARTUP_DEADLINE_VARIABLE)
            .in(ClientSettings.STARTUP_DEADLINE_RANGE).byDefault(Long.toString(ClientSettings.DEFAULT_STARTUP_DEADLINE_MILLIS))
            .means("check: how long its lease step asks again, with the same request id, when the API gave no answer or one"
                    + " that settles nothing");

    /** The commands' settings: the one declaration of each. */
    static final SettingCatalogue CATALOGUE = SettingCatalogue.of("the agent's CLI", SECRET, AUTH, REGION, ALLOW_PLAIN_HTTP,
            STARTUP_DEADLINE)
            .withHint("SNOWID_LEASE_URL", "the commands take the lease URL as their argument");

    private CliSettings() {
    }

    /**
     * How requests are authorized: {@code bearer} unless {@value #AUTH_VARIABLE} says otherwise.
     *
     * @throws IllegalArgumentException it names no mode
     */
    static LeaseAuthMode mode(Map<String, String> env) {
        try {
            return AUTH.read(env.get(AUTH_VARIABLE));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(AUTH_VARIABLE + ": " + e.getMessage(), e);
        }
    }

    /**
     * How long a first lease is asked again after no settled answer ({@value #STARTUP_DEADLINE_VARIABLE}).
     *
     * @throws IllegalArgumentException out of range, or no whole number
     */
    static long startupDeadlineMillis(Map<String, String> env) {
        String text = env.get(STARTUP_DEADLINE_VARIABLE);
        try {
            return STARTUP_DEADLINE.read(text == null ? null : text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(STARTUP_DEADLINE.shown(STARTUP_DEADLINE_VARIABLE, text) + ": " + e.getMessage(), e);
        }
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
        if (mode(env) == LeaseAuthMode.AWS_IAM) {
            String region = env.get(REGION_VARIABLE);
            try {
                return new HttpLeaseSource(url, IamSigning.forRegion(region == null || region.trim().isEmpty() ? null : region.trim())
                        .authorizerFor(url), holder, WallClock.SYSTEM);
            } catch (RuntimeException e) { // no SDK in this jar, a bad region
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        String secret = env.get(SECRET_VARIABLE);
        if (secret == null || secret.trim().isEmpty()) {
            throw new IllegalArgumentException(SECRET_VARIABLE + " is not set: " + needs + " the lease API's bearer secret (or "
                    + AUTH_VARIABLE + "=aws_iam with snowid-agent-iam.jar)");
        }
        HttpUrl.requireSafeForSecret(url, "'" + HttpUrl.shown(url.toString()) + "'", allowPlainHttp(env),
                ALLOW_PLAIN_HTTP_VARIABLE + "=true");
        // Judged as the agent judges its own: a command holds the secret in clear too.
        return new HttpLeaseSource(url, BearerSecret.fixed(BearerSecretStrength.requireStrong("the environment variable " + SECRET_VARIABLE,
                secret.trim())), holder);
    }

    /** {@value #ALLOW_PLAIN_HTTP_VARIABLE}: false unless {@code true}. */
    private static boolean allowPlainHttp(Map<String, String> env) {
        String text = env.get(ALLOW_PLAIN_HTTP_VARIABLE);
        if (text == null || text.trim().isEmpty() || text.trim().equals("false")) {
            return false;
        }
        if (!text.trim().equals("true")) {
            throw new IllegalArgumentException(ALLOW_PLAIN_HTTP.shown(ALLOW_PLAIN_HTTP_VARIABLE, text) + " is not a switch: allowed "
                    + ALLOW_PLAIN_HTTP.allowed());
        }
        return true;
    }
}
