package dev.snowid.spring.autoconfigure;

import dev.snowid.client.SnowidClient;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The application's {@link SnowidClient}: its slot is leased while the context starts (a wrong
 * URL, a refused secret or a full pool stop start-up, reported by {@link SnowidFailureAnalyzer}),
 * and released when the context closes, once the web server has stopped ({@link SnowidLeaseLifecycle}).
 */
@AutoConfiguration
@ConditionalOnClass(SnowidClient.class)
@ConditionalOnProperty(prefix = SnowidProperties.PREFIX, name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties(SnowidProperties.class)
public class SnowidAutoConfiguration {

    @Bean(destroyMethod = "close") // and earlier by the lifecycle; close is idempotent
    @ConditionalOnMissingBean
    public SnowidClient snowidClient(SnowidProperties properties, Environment environment) {
        UnknownProperties unknown = UnknownProperties.in(environment);
        Log log = LogFactory.getLog(SnowidAutoConfiguration.class);
        unknown.warnings().forEach(log::warn);
        return LeaseStartup.lease(properties, HolderName.of(environment), unknown);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(SnowidClient.class)
    public SnowidLeaseLifecycle snowidLeaseLifecycle(SnowidClient client) {
        return new SnowidLeaseLifecycle(client);
    }
}
