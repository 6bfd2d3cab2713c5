package dev.snowid.spring.autoconfigure.health;

import dev.snowid.client.SnowidClient;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** {@link SnowidHealth} as Spring Boot 4's health indicator (module spring-boot-health). */
public final class Boot4SnowidHealthIndicator extends AbstractHealthIndicator {

    private final SnowidClient client;

    public Boot4SnowidHealthIndicator(SnowidClient client) {
        super("snowid health check failed");
        this.client = client;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        SnowidHealth health = SnowidHealth.of(client);
        builder.status(health.status()).withDetails(health.details());
    }
}
