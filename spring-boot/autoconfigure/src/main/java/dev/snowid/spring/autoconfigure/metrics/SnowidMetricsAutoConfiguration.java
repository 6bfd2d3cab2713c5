package dev.snowid.spring.autoconfigure.metrics;

import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** {@link SnowidMeters} when Micrometer is present; Spring Boot binds every {@link MeterBinder} bean to its registry. */
@AutoConfiguration(after = SnowidAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(SnowidClient.class)
public class SnowidMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public SnowidMeters snowidMeters(SnowidClient client) {
        return new SnowidMeters(client);
    }
}
