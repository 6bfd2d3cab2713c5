package dev.snowid.spring.autoconfigure.orm;

import dev.snowid.client.SnowidClient;
import dev.snowid.integrations.hibernate.SnowidIdGenerator;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Hands the client bean to Hibernate for {@code @SnowidId}: as the session factory's setting
 * {@value SnowidIdGenerator#CLIENT_SETTING}, through Spring Boot's {@code HibernatePropertiesCustomizer}
 * (Boot 3: in spring-boot-autoconfigure; Boot 4: in spring-boot-hibernate). No static holder: each
 * session factory gets the client of its own context. The customizer's bean name is
 * {@value #BEAN}: a bean of that name replaces it.
 */
@AutoConfiguration(after = SnowidAutoConfiguration.class,
        beforeName = {"org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
                "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration"})
@ConditionalOnClass(SnowidIdGenerator.class)
@ConditionalOnBean(SnowidClient.class)
public class SnowidHibernateAutoConfiguration {

    public static final String BEAN = "snowidHibernatePropertiesCustomizer";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer")
    static class Boot4 {
        @Bean(name = BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer snowidHibernatePropertiesCustomizer(
                SnowidClient client) {
            return properties -> properties.put(SnowidIdGenerator.CLIENT_SETTING, client);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.autoconfigure.orm.jpa.HibernatePropertiesCustomizer")
    static class Boot3 {
        @Bean(name = BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        org.springframework.boot.autoconfigure.orm.jpa.HibernatePropertiesCustomizer snowidHibernatePropertiesCustomizer(
                SnowidClient client) {
            return properties -> properties.put(SnowidIdGenerator.CLIENT_SETTING, client);
        }
    }
}
