package dev.snowid.spring.autoconfigure;

import dev.snowid.ClockBehindException;
import dev.snowid.IdUnavailableException;
import dev.snowid.SnowflakeCodec;
import dev.snowid.client.EpochMismatchException;
import dev.snowid.client.LeaseSecretRefusedException;
import dev.snowid.client.SnowidClient;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.NoFreeSlotException;
import dev.snowid.spring.autoconfigure.LeaseStartupException.Problem;
import java.io.IOException;
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

    static SnowidClient lease(SnowidProperties properties, String defaultHolder) {
        SnowidProperties.Lease lease = properties.getLease();
        String url = blankToNull(lease.getUrl());
        if (url == null) {
            throw new LeaseStartupException(Problem.SETTING_MISSING, SnowidSetting.URL, null,
                    SnowidSetting.URL.property() + " is not set", null);
        }
        if (blankToNull(lease.getSecret()) == null) {
            throw new LeaseStartupException(Problem.SETTING_MISSING, SnowidSetting.SECRET, url,
                    SnowidSetting.SECRET.property() + " is not set (nor SNOWID_LEASE_SECRET)", null);
        }
        SnowidClient.Builder builder = SnowidClient.builder();
        configure(builder, properties, url, defaultHolder);
        try {
            return builder.build();
        } catch (NoFreeSlotException e) {
            throw new LeaseStartupException(Problem.POOL_FULL, SnowidSetting.WAIT_FOR_SLOT, url, e.getMessage(), e);
        } catch (EpochMismatchException e) {
            throw new LeaseStartupException(Problem.EPOCH_MISMATCH, SnowidSetting.EPOCH, url, e.getMessage(), e);
        } catch (ClockSkewException | ClockBehindException e) {
            throw new LeaseStartupException(Problem.CLOCK, null, url, e.getMessage(), e);
        } catch (IdUnavailableException e) { // the store unavailable, the secret refused, the API failing
            throw unavailable(e, url);
        } catch (IllegalArgumentException e) {
            throw new LeaseStartupException(Problem.SETTING_INVALID, settingNamedBy(e.getMessage()), url, e.getMessage(), e);
        }
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
                    setting.property() + " '" + value + "' is not allowed: " + e.getMessage(), e);
        }
    }

    /** A refused secret has its own type; no answer at all wraps the IOException. */
    private static LeaseStartupException unavailable(IdUnavailableException e, String url) {
        String message = e.getMessage();
        if (e instanceof LeaseSecretRefusedException) {
            return new LeaseStartupException(Problem.SECRET_REFUSED, SnowidSetting.SECRET, url, message, e);
        }
        if (e.getCause() instanceof IOException) {
            return new LeaseStartupException(Problem.UNREACHABLE, SnowidSetting.URL, url, message, e);
        }
        return new LeaseStartupException(Problem.API_FAILED, SnowidSetting.URL, url, message, e);
    }

    /** The builder's own checks at build() start with the setting's name ("secret is empty…"). */
    private static SnowidSetting settingNamedBy(String message) {
        if (message != null && message.startsWith("secret")) {
            return SnowidSetting.SECRET;
        }
        return SnowidSetting.URL;
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
