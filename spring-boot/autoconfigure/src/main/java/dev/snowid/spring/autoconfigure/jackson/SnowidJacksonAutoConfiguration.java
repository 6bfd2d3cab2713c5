package dev.snowid.spring.autoconfigure.jackson;

import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Jackson module for each Jackson line on the classpath: Spring Boot 3 registers every
 * {@code com.fasterxml.jackson.databind.Module} bean with its ObjectMapper, Spring Boot 4 every
 * {@code tools.jackson.databind.JacksonModule} bean with its JsonMapper (and Jackson 2 modules
 * with its Jackson 2 support). IDs decode with the client's epoch.
 */
@AutoConfiguration(after = SnowidAutoConfiguration.class,
        beforeName = {"org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration",
                "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
                "org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration"})
@ConditionalOnBean(SnowidClient.class)
public class SnowidJacksonAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "com.fasterxml.jackson.databind.Module")
    static class Jackson2 {
        @Bean
        @ConditionalOnMissingBean
        SnowidJackson2Module snowidJackson2Module(SnowidClient client) {
            return new SnowidJackson2Module(client.codec());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "tools.jackson.databind.JacksonModule")
    static class Jackson3 {
        @Bean
        @ConditionalOnMissingBean
        SnowidJackson3Module snowidJackson3Module(SnowidClient client) {
            return new SnowidJackson3Module(client.codec());
        }
    }
}
