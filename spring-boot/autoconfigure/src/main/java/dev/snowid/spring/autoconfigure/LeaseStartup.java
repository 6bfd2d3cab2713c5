package dev.snowid.spring.autoconfigure;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.client.ClientSettings;
import dev.snowid.client.SnowidClient;
import dev.snowid.client.auth.AwsSigning;
import dev.snowid.internal.Setting;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.HttpUrl;
import dev.snowid.protocol.LeaseAuthMode;
import dev.snowid.spring.autoconfigure.LeaseStartupException.Problem;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Builds the application's {@link SnowidClient} from {@link SnowidProperties}, leasing its slot
 * now, while the context starts: every way that can fail becomes a {@link LeaseStartupException}
 * naming the setting to fix.
 */
final class LeaseStartup {

    private LeaseStartup() {
    }

    static SnowidClient lease(SnowidProperties properties, String defaultHolder, UnknownProperties unknown) {
        SnowidProperties.Lease lease = properties.getLease();
        String url = blankToNull(lease.getUrl());
        if (url == null) {
            throw missing(SnowidSetting.URL, null, unknown, "");
        }
        LeaseAuthMode mode = mode(lease);
        if (mode == LeaseAuthMode.BEARER && blankToNull(lease.getSecret()) == null) {
            throw missing(SnowidSetting.SECRET, url, unknown, " (nor SNOWID_LEASE_SECRET)");
        }
        SnowidClient.Builder builder = SnowidClient.builder();
        configure(builder, properties, url, defaultHolder);
        authorize(builder, lease, mode, url, unknown);
        try {
            return builder.build();
        } catch (IdUnavailableException | IllegalArgumentException e) {
            throw failed(e, url, mode);
        } catch (IllegalStateException e) {
            if (mode == LeaseAuthMode.AWS_IAM && String.valueOf(e.getMessage()).contains("software.amazon.awssdk")) {
                // aws_iam without the SDK: AwsSigning's message names the artifacts to add
                throw new LeaseStartupException(Problem.SDK_MISSING, SnowidSetting.AUTH, url, e.getMessage(), e);
            }
            throw e;
        }
    }

    private static LeaseAuthMode mode(SnowidProperties.Lease lease) {
        String auth = blankToNull(lease.getAuth());
        try {
            return auth == null ? LeaseAuthMode.BEARER : LeaseAuthMode.parse(auth);
        } catch (IllegalArgumentException e) {
            throw new LeaseStartupException(Problem.SETTING_INVALID, SnowidSetting.AUTH, null,
                    SnowidSetting.AUTH.property() + " " + e.getMessage(), e);
        }
    }

    /** The secret (bearer), or a signature with this workload's AWS credentials (aws_iam): never both. */
    private static void authorize(SnowidClient.Builder builder, SnowidProperties.Lease lease, LeaseAuthMode mode, String url,
                                  UnknownProperties unknown) {
        String region = blankToNull(lease.getRegion());
        if (mode == LeaseAuthMode.BEARER) {
            if (region != null) {
                throw new LeaseStartupException(Problem.SETTING_INVALID, SnowidSetting.REGION, url, SnowidSetting.REGION.property()
                        + " is set, but only signing needs a region: it applies with " + SnowidSetting.AUTH.property() + "=aws_iam", null);
            }
            try {
                HttpUrl.requireSafeForSecret(HttpUrl.parse(url), SnowidSetting.URL.property() + "='" + HttpUrl.shown(url) + "'",
                        lease.isAllowPlainHttp(), SnowidSetting.ALLOW_PLAIN_HTTP.property() + "=true");
            } catch (IllegalArgumentException e) {
                throw new LeaseStartupException(Problem.SETTING_INVALID, SnowidSetting.ALLOW_PLAIN_HTTP, url, e.getMessage(), e);
            }
            builder.allowPlainHttp(lease.isAllowPlainHttp());
            // Asked on every call to the API: a secret rotated in the environment's source is picked up.
            builder.secret(new PropertySecret(lease));
            return;
        }
        if (blankToNull(lease.getSecret()) != null) {
            throw new LeaseStartupException(Problem.SETTING_INVALID, SnowidSetting.SECRET, url, SnowidSetting.SECRET.property()
                    + " (or SNOWID_LEASE_SECRET) is set, but " + SnowidSetting.AUTH.property() + "=aws_iam signs lease requests with"
                    + " this workload's AWS credentials and sends no secret: remove it (or use " + SnowidSetting.AUTH.property()
                    + "=bearer)", null);
        }
        if (region == null && !AwsSigning.regionOf(HttpUrl.parse(url).getHost()).isPresent()) {
            throw missing(SnowidSetting.REGION, url, unknown, ", and the lease URL's host names none (it is not"
                    + " <api-id>.execute-api.<region>.amazonaws.com)");
        }
        AwsSigning signing = AwsSigning.defaultCredentials();
        apply(SnowidSetting.REGION, region, () -> builder.signing(region == null ? signing : signing.region(region)));
    }

    /** A required property unset; when an unknown property is a typo of it, said first. */
    private static LeaseStartupException missing(SnowidSetting setting, String url, UnknownProperties unknown, String also) {
        String typo = unknown.meant(setting);
        return new LeaseStartupException(Problem.SETTING_MISSING, setting, url,
                setting.property() + " is not set" + also + (typo == null ? "" : "; " + typo), null);
    }

    /** What went wrong, naming the property behind the builder setting the client says to fix ({@link ClientSettings#toFix}). */
    private static LeaseStartupException failed(RuntimeException e, String url, LeaseAuthMode mode) {
        Setting<?> toFix = ClientSettings.toFix(e);
        if (toFix == ClientSettings.SECRET && mode == LeaseAuthMode.AWS_IAM) { // refused credentials: here, the workload's identity
            return new LeaseStartupException(Problem.PRINCIPAL_REFUSED, SnowidSetting.AUTH, url, e.getMessage(), e);
        }
        SnowidSetting property = toFix == null ? null : SnowidSetting.feeding(toFix);
        return new LeaseStartupException(problem(e, toFix), property != null || toFix == null ? property : SnowidSetting.URL, url,
                e.getMessage(), e);
    }

    private static Problem problem(RuntimeException e, Setting<?> toFix) {
        if (toFix == null) {
            return Problem.CLOCK;
        }
        if (!(e instanceof IdUnavailableException)) {
            return Problem.SETTING_INVALID;
        }
        if (toFix == ClientSettings.WAIT_FOR_SLOT) {
            return Problem.POOL_FULL;
        }
        if (toFix == ClientSettings.CODEC) {
            return Problem.EPOCH_MISMATCH;
        }
        if (toFix == ClientSettings.SECRET) {
            return Problem.SECRET_REFUSED;
        }
        return ClientSettings.unanswered(e) ? Problem.UNREACHABLE : Problem.API_FAILED;
    }

    private static void configure(SnowidClient.Builder builder, SnowidProperties properties, String url, String defaultHolder) {
        SnowidProperties.Lease lease = properties.getLease();
        apply(SnowidSetting.URL, url, () -> builder.leaseUrl(url));
        // The starter's lifecycle suspends and resumes the client around a CRaC checkpoint: the client's own hooks would act twice.
        builder.snapshotHooks(false);
        builder.auditAtInfo(lease.isAuditAtInfo());
        String holder = blankToNull(lease.getHolder());
        apply(SnowidSetting.HOLDER, holder, () -> builder.holder(holder != null ? holder : defaultHolder));
        Duration duration = lease.getDuration();
        if (duration != null) {
            apply(SnowidSetting.DURATION, duration, () -> builder.leaseMillis(duration.toMillis()));
        }
        Duration wait = lease.getWaitForSlot();
        if (wait != null) {
            apply(SnowidSetting.WAIT_FOR_SLOT, wait, () -> builder.waitForSlotUpTo(wait.toMillis()));
        }
        Duration deadline = lease.getStartupDeadline();
        if (deadline != null) {
            apply(SnowidSetting.STARTUP_DEADLINE, deadline, () -> builder.startupDeadline(deadline.toMillis()));
        }
        Long epoch = properties.getEpochMillis();
        if (epoch != null) {
            apply(SnowidSetting.EPOCH, epoch, () -> builder.codec(SnowflakeCodec.withEpoch(epoch)));
        }
    }

    /** One builder call; its refusal names the property, not the builder's method. */
    private static void apply(SnowidSetting setting, Object value, Runnable call) {
        try {
            call.run();
        } catch (IllegalArgumentException e) {
            throw new LeaseStartupException(Problem.SETTING_INVALID, setting, null,
                    setting.property() + " '" + EchoedInput.shortened(setting == SnowidSetting.URL
                    ? HttpUrl.shown(String.valueOf(value)) : String.valueOf(value)) + "' is not allowed: " + e.getMessage(), e);
        }
    }

    private static String blankToNull(String value) {
        return value == null || value.trim().isEmpty() ? null : value.trim();
    }

    /** The secret as bound now; a class, so that its toString can never show it. */
    private static final class PropertySecret implements Supplier<String> {
        private final SnowidProperties.Lease lease;

        PropertySecret(SnowidProperties.Lease lease) {
            this.lease = lease;
        }

        @Override
        public String get() {
            return lease.getSecret();
        }

        @Override
        public String toString() {
            return "******";
        }
    }
}
