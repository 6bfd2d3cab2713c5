package dev.snowid.spring.autoconfigure;

import dev.snowid.client.BearerSecretStrength;
import dev.snowid.client.ClientSettings;
import dev.snowid.internal.NumberRange;
import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.protocol.LeaseAuthMode;
import java.time.Duration;

/**
 * The starter's properties, each declared once: the property, what it takes (drawn from the
 * client builder's setting it feeds, {@link ClientSettings}), its default and what it means.
 * {@link SnowidProperties} binds them; a start-up failure points at one; {@link #CATALOGUE} is
 * what the start-up check of {@code snowid.*} names and the docs' table are held to.
 */
public enum SnowidSetting {
    URL(Setting.named("snowid.lease.url")
            .allowed("the snowid function's base URL (the template's LeaseUrl output, or the local runner's address)")
            .means("required: the snowid function's base URL"), ClientSettings.LEASE_URL),
    SECRET(Setting.named("snowid.lease.secret").secret()
            .allowed("the lease API's bearer secret, " + BearerSecretStrength.ALLOWED + " (or the environment variable SNOWID_LEASE_SECRET)")
            .means("required in bearer mode (or the environment variable SNOWID_LEASE_SECRET): the lease API's bearer secret"),
            ClientSettings.SECRET),
    AUTH(Setting.named("snowid.lease.auth").byDefault(LeaseAuthMode.BEARER.value())
            .allowed(LeaseAuthMode.ALLOWED, "bearer", "aws_iam")
            .means("how lease requests prove who sends them; aws_iam needs the AWS SDK's signer on the class path"),
            ClientSettings.AWS_IAM),
    ALLOW_PLAIN_HTTP(Setting.named("snowid.lease.allow-plain-http").byDefault(ClientSettings.ALLOW_PLAIN_HTTP.defaultValue())
            .allowed("true, only on a network you trust (else use https in snowid.lease.url), or false", "true", "false")
            .means("true: send the secret over plain http to a host that is not loopback (a runner reached by a compose service"
                    + " name, on a network you trust); else start-up refuses"), ClientSettings.ALLOW_PLAIN_HTTP),
    REGION(Setting.named("snowid.lease.region").unsetMeans("from the lease URL's host")
            .allowed("an AWS region name such as eu-west-1, only with aws_iam")
            .means("the lease API's region, to sign for; needed when the lease URL is a custom domain"), null),
    HOLDER(Setting.named("snowid.lease.holder").unsetMeans("spring.application.name + @ + host name")
            .allowed("a label of " + ClientSettings.HOLDER.allowed(), ClientSettings.HOLDER.allowedValues().toArray(new String[0]))
            .means("who holds the lease, as the slot map shows it"), ClientSettings.HOLDER),
    DURATION(Setting.named("snowid.lease.duration").unsetMeans("what the API grants")
            .allowed("a lease length from " + duration(LeaseTerms.LEASE_MILLIS_RANGE.min()) + " to "
                    + duration(LeaseTerms.LEASE_MILLIS_RANGE.max()), bounds(LeaseTerms.LEASE_MILLIS_RANGE))
            .means("plan renewals for a lease this long, never longer than granted"), ClientSettings.LEASE_MILLIS),
    WAIT_FOR_SLOT(Setting.named("snowid.lease.wait-for-slot").byDefault(defaultDuration(ClientSettings.WAIT_FOR_SLOT))
            .allowed("how long start-up may wait for a free slot, " + duration(ClientSettings.Ranges.WAIT_FOR_SLOT.min()) + " to "
                    + duration(ClientSettings.Ranges.WAIT_FOR_SLOT.max()), bounds(ClientSettings.Ranges.WAIT_FOR_SLOT))
            .means("when every slot is held at start-up, wait this long for one to free"), ClientSettings.WAIT_FOR_SLOT),
    STARTUP_DEADLINE(Setting.named("snowid.lease.startup-deadline")
            .byDefault(defaultDuration(ClientSettings.STARTUP_DEADLINE))
            .allowed("how long start-up asks again, " + duration(ClientSettings.Ranges.STARTUP_DEADLINE.min()) + " to "
                    + duration(ClientSettings.Ranges.STARTUP_DEADLINE.max()), bounds(ClientSettings.Ranges.STARTUP_DEADLINE))
            .means("how long start-up asks again, with the same request id, when the lease API gave no answer or one that"
                    + " settles nothing"), ClientSettings.STARTUP_DEADLINE),
    AUDIT_AT_INFO(Setting.named("snowid.lease.audit-at-info").byDefault(ClientSettings.AUDIT_AT_INFO.defaultValue()).allowed("true or false", "true", "false")
            .means("true: every lease grant, renewal, release and loss as an audit line at INFO (logger dev.snowid.client.audit);"
                    + " else at DEBUG"), ClientSettings.AUDIT_AT_INFO),
    EPOCH(Setting.named("snowid.epoch-millis").unsetMeans("the lease API's")
            .allowed("the lease API's epoch, or no value to adopt it")
            .means("the epoch IDs count from (unix ms); when set, it must be the API's"), ClientSettings.CODEC),
    ENABLED(Setting.named("snowid.enabled").byDefault("true").allowed("true or false", "true", "false")
            .means("false: no client, no lease (and none of the beans that need one)"), null);

    /** The health indicator's switch: Spring Boot's management.health.*.enabled, bound by the actuator, not by {@link SnowidProperties}. */
    static final Setting<String> HEALTH = Setting.named("management.health.snowid.enabled").byDefault("true").allowed("true or false")
            .means("the snowid health indicator");

    /** Every property of the starter, this enum's and the health indicator's switch. */
    public static final SettingCatalogue CATALOGUE = catalogue();

    private final Setting<String> setting;
    private final Setting<?> feeds;

    SnowidSetting(Setting<String> setting, Setting<?> feeds) {
        this.setting = setting;
        this.feeds = feeds;
    }

    public String property() {
        return setting.name();
    }

    /** What the property takes, in words. */
    public String allowed() {
        return setting.allowed();
    }

    /** The declaration: default, what it takes, what it means. */
    public Setting<String> setting() {
        return setting;
    }

    /** Its default, a switch's: what {@link SnowidProperties} starts with, so that the catalogue says it once. */
    boolean defaultSwitch() {
        return Boolean.parseBoolean(setting.defaultValue());
    }

    /** Its default, a duration's: the default of the client setting it feeds, in ms. */
    Duration defaultDuration() {
        @SuppressWarnings("unchecked")
        Setting<Long> millis = (Setting<Long>) feeds;
        return Duration.ofMillis(millis.read(null));
    }

    /** The property that feeds {@code clientSetting} (one of {@link ClientSettings}); null when none does. */
    static SnowidSetting feeding(Setting<?> clientSetting) {
        for (SnowidSetting property : values()) {
            if (property.feeds != null && property.feeds == clientSetting) {
                return property;
            }
        }
        return null;
    }

    private static SettingCatalogue catalogue() {
        Setting<?>[] all = new Setting<?>[values().length + 1];
        for (SnowidSetting property : values()) {
            all[property.ordinal()] = property.setting;
        }
        all[values().length] = HEALTH;
        return SettingCatalogue.of("the Spring Boot starter", all);
    }

    /** {@code 5s}, {@code 1h}: as a Spring Boot duration is written. */
    static String duration(long millis) {
        if (millis == 0) {
            return "0";
        }
        if (millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** A client setting's default in ms as Spring Boot's metadata writes a {@link Duration}'s: {@code 0ms}, {@code 10s}. */
    private static String defaultDuration(Setting<Long> client) {
        long millis = client.read(null);
        return millis == 0 ? "0ms" : duration(millis);
    }

    private static String[] bounds(NumberRange range) {
        return new String[] {duration(range.min()), duration(range.max())};
    }
}
