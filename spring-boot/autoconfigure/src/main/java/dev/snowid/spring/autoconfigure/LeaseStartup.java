package dev.snowid.spring.autoconfigure;

import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.client.ClientSettings;
import dev.snowid.client.SnowidClient;
import dev.snowid.internal.Setting;
import dev.snowid.protocol.EchoedInput;
import dev.snowid.protocol.HttpUrl;
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
        if (blankToNull(lease.getSecret()) == null) {
            throw missing(SnowidSetting.SECRET, url, unknown, " (nor SNOWID_LEASE_SECRET)");
        }
        SnowidClient.Builder builder = SnowidClient.builder();
        configure(builder, properties, url, defaultHolder);
        try {
            return builder.build();
        } catch (IdUnavailableException | IllegalArgumentException e) {
            throw failed(e, url);
        }
    }

    /** A required property unset; when an unknown property is a typo of it, said first. */
    private static LeaseStartupException missing(SnowidSetting setting, String url, UnknownProperties unknown, String also) {
        String typo = unknown.meant(setting);
        return new LeaseStartupException(Problem.SETTING_MISSING, setting, url,
                setting.property() + " is not set" + also + (typo == null ? "" : "; " + typo), null);
    }

    /** What went wrong, naming the property behind the builder setting the client says to fix ({@link ClientSettings#toFix}). */
    private static LeaseStartupException failed(RuntimeException e, String url) {
        Setting<?> toFix = ClientSettings.toFix(e);
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
        // Asked on every call to the API: a secret rotated in the environment's source is picked up.
        builder.secret(new PropertySecret(lease));
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
