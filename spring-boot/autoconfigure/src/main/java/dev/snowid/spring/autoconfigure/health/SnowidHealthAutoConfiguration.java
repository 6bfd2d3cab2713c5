package dev.snowid.spring.autoconfigure.health;

import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code snowid} health indicator (bean {@value #BEAN}), on whichever health API the
 * application's Boot line has. Off with {@code management.health.snowid.enabled=false}.
 */
@AutoConfiguration(after = SnowidAutoConfiguration.class)
@ConditionalOnBean(SnowidClient.class)
@ConditionalOnProperty(prefix = "management.health.snowid", name = "enabled", matchIfMissing = true)
public class SnowidHealthAutoConfiguration {

    /** Spring Boot names the contributor after the bean, less "HealthIndicator": {@code snowid}. */
    public static final String BEAN = "snowidHealthIndicator";

    static final String BOOT4_HEALTH = "org.springframework.boot.health.contributor.HealthIndicator";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = BOOT4_HEALTH)
    static class Boot4 {
        @Bean(name = BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        Boot4SnowidHealthIndicator snowidHealthIndicator(SnowidClient client) {
            return new Boot4SnowidHealthIndicator(client);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    @ConditionalOnMissingClass(BOOT4_HEALTH)
    static class Boot3 {
        @Bean(name = BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        Boot3SnowidHealthIndicator snowidHealthIndicator(SnowidClient client) {
            return new Boot3SnowidHealthIndicator(client);
        }
    }
}
