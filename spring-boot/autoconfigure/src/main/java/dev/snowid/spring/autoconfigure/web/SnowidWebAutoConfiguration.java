package dev.snowid.spring.autoconfigure.web;

import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@link SnowflakeIdConverter} for MVC and WebFlux, and the answers to a malformed (400) or refused (503) ID on each. */
@AutoConfiguration(after = SnowidAutoConfiguration.class)
@ConditionalOnBean(SnowidClient.class)
@ConditionalOnWebApplication
public class SnowidWebAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public SnowflakeIdConverter snowflakeIdConverter(SnowidClient client) {
        return new SnowflakeIdConverter(client.codec());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.servlet.HandlerExceptionResolver")
    static class Mvc {
        @Bean
        @ConditionalOnMissingBean
        IdAnswerMvcResolver idAnswerMvcResolver() {
            return new IdAnswerMvcResolver();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class WebFlux {
        @Bean
        @ConditionalOnMissingBean
        IdAnswerWebFluxHandler idAnswerWebFluxHandler() {
            return new IdAnswerWebFluxHandler();
        }
    }
}
