package dev.snowid.spring.autoconfigure.health;

import dev.snowid.client.SnowidClient;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/** {@link SnowidHealth} as Spring Boot 3's health indicator. */
public final class Boot3SnowidHealthIndicator extends AbstractHealthIndicator {

    private final SnowidClient client;

    public Boot3SnowidHealthIndicator(SnowidClient client) {
        super("snowid health check failed");
        this.client = client;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        SnowidHealth health = SnowidHealth.of(client);
        builder.status(health.status()).withDetails(health.details());
    }
}
