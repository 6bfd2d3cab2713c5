package dev.snowid.spring.autoconfigure.actuate;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;

/**
 * Masks the lease API's secret in {@code /actuator/env} and {@code /actuator/configprops} even
 * where an application shows their values ({@code management.endpoint.*.show-values}): the
 * property {@code snowid.lease.secret} (configprops names it {@code lease.secret} under the
 * {@code snowid} prefix) and the environment variable {@code SNOWID_LEASE_SECRET}.
 */
public final class SecretSanitizer implements SanitizingFunction {

    @Override
    public SanitizableData apply(SanitizableData data) {
        String key = data.getLowerCaseKey();
        // configprops may name it by its path below the prefix; masking another library's "secret" too is harmless
        boolean secret = key != null && (key.endsWith("lease.secret") || key.equals("secret") || key.equals("snowid_lease_secret"));
        return secret ? data.withSanitizedValue() : data;
    }
}
