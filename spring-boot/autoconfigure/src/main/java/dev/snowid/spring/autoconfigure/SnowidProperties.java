package dev.snowid.spring.autoconfigure;

import dev.snowid.protocol.HttpUrl;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code snowid.*} settings: where to lease a node slot, and how the client holds it. Each
 * maps one to one onto a {@link dev.snowid.client.SnowidClient.Builder} setting. The defaults are
 * the catalogue's ({@link SnowidSetting}); {@code additional-spring-configuration-metadata.json}
 * names them for IDEs, which a test holds to the catalogue.
 */
@ConfigurationProperties(prefix = SnowidProperties.PREFIX)
public class SnowidProperties {

    public static final String PREFIX = "snowid";

    /** Whether to lease a slot and configure a SnowidClient; false leaves the application without one. */
    private boolean enabled = SnowidSetting.ENABLED.defaultSwitch();

    /**
     * The epoch IDs count their milliseconds from, in unix ms. When unset, the lease API's (the one
     * every holder of its pool uses); when set, it must be the lease API's, or start-up fails.
     */
    private Long epochMillis;

    private final Lease lease = new Lease();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Long getEpochMillis() {
        return epochMillis;
    }

    public void setEpochMillis(Long epochMillis) {
        this.epochMillis = epochMillis;
    }

    public Lease getLease() {
        return lease;
    }

    /** The lease: the API that grants it, the secret, and how long it is held. */
    public static class Lease {

        /**
         * The snowid function's base URL, the one its routes hang under (the template's LeaseUrl
         * output, or the local runner's address). Required.
         */
        private String url;

        /**
         * The lease API's bearer secret. Required in bearer mode: here or in the environment variable
         * SNOWID_LEASE_SECRET. Never logged, and masked by the actuator's env and configprops endpoints.
         */
        private String secret;

        /**
         * How lease requests prove who sends them: bearer (the secret) or aws_iam (AWS SigV4 with this
         * workload's credentials, from the AWS SDK's default chain; needs software.amazon.awssdk:http-auth-aws
         * and software.amazon.awssdk:auth on the class path).
         */
        private String auth = SnowidSetting.AUTH.setting().defaultValue();

        /**
         * Whether the secret may go over plain http to a host that is not loopback: a runner reached by
         * a compose service name, on a network you trust. Default false: start-up refuses that.
         */
        private boolean allowPlainHttp = SnowidSetting.ALLOW_PLAIN_HTTP.defaultSwitch();

        /** With aws_iam: the lease API's AWS region, e.g. eu-west-1. Default: from the lease URL's host (execute-api). */
        private String region;

        /** Who holds the lease, as the slot map shows it to operators. Default: spring.application.name and the host name. */
        private String holder;

        /**
         * Plan renewals for a lease this long (5s to 1h); never longer than the lease API grants.
         * Default: what the API grants.
         */
        private Duration duration;

        /**
         * When every slot of the pool is held at start-up, wait up to this long (0 to 1h) for one to
         * free. Default 0: start-up fails at once.
         */
        private Duration waitForSlot = SnowidSetting.WAIT_FOR_SLOT.defaultDuration();

        /**
         * How long start-up asks again (0 to 10m), with the same request id, when the lease API gave no
         * answer or one that settles nothing: a lease granted to a lost answer is then answered again.
         */
        private Duration startupDeadline = SnowidSetting.STARTUP_DEADLINE.defaultDuration();

        /**
         * Whether every lease grant, renewal, release and loss is logged as an audit line at INFO
         * (logger dev.snowid.client.audit). Default false: at DEBUG.
         */
        private boolean auditAtInfo = SnowidSetting.AUDIT_AT_INFO.defaultSwitch();

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public boolean isAllowPlainHttp() {
            return allowPlainHttp;
        }

        public void setAllowPlainHttp(boolean allowPlainHttp) {
            this.allowPlainHttp = allowPlainHttp;
        }

        public boolean isAuditAtInfo() {
            return auditAtInfo;
        }

        public void setAuditAtInfo(boolean auditAtInfo) {
            this.auditAtInfo = auditAtInfo;
        }

        public String getSecret() {
            return secret;
        }

        public void setSecret(String secret) {
            this.secret = secret;
        }

        public String getAuth() {
            return auth;
        }

        public void setAuth(String auth) {
            this.auth = auth;
        }

        public String getRegion() {
            return region;
        }

        public void setRegion(String region) {
            this.region = region;
        }

        public String getHolder() {
            return holder;
        }

        public void setHolder(String holder) {
            this.holder = holder;
        }

        public Duration getDuration() {
            return duration;
        }

        public void setDuration(Duration duration) {
            this.duration = duration;
        }

        public Duration getWaitForSlot() {
            return waitForSlot;
        }

        public void setWaitForSlot(Duration waitForSlot) {
            this.waitForSlot = waitForSlot;
        }

        public Duration getStartupDeadline() {
            return startupDeadline;
        }

        public void setStartupDeadline(Duration startupDeadline) {
            this.startupDeadline = startupDeadline;
        }

        /** Never the secret: this object may end up in a log line or an error page. */
        @Override
        public String toString() {
            return "Lease{url=" + (url == null ? null : HttpUrl.shown(url)) + ", auth=" + auth + ", region=" + region
                    + ", holder=" + holder + ", duration=" + duration
                    + ", allowPlainHttp=" + allowPlainHttp + ", waitForSlot=" + waitForSlot + ", startupDeadline=" + startupDeadline + ", auditAtInfo=" + auditAtInfo + "}";
        }
    }
}
