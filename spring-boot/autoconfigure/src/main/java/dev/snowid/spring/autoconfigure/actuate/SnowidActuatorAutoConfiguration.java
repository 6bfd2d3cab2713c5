package dev.snowid.spring.autoconfigure.actuate;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** {@link SecretSanitizer} wherever Spring Boot's actuator is: its endpoints apply every {@code SanitizingFunction} bean. */
@AutoConfiguration
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.SanitizingFunction")
public class SnowidActuatorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public SecretSanitizer snowidSecretSanitizer() {
        return new SecretSanitizer();
    }
}
