package dev.snowid.spring.autoconfigure.orm;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import dev.snowid.client.SnowidClient;
import dev.snowid.integrations.mybatisplus.SnowidIdentifierGenerator;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * MyBatis-Plus's {@link IdentifierGenerator} bean, which its Spring Boot starter installs in its
 * {@code GlobalConfig}: {@code @TableId(type = IdType.ASSIGN_ID)} keys (and {@code IdWorker.getId()})
 * then come from the leased slot. Before MyBatis-Plus's own auto-configuration, which looks for the bean.
 */
@AutoConfiguration(after = SnowidAutoConfiguration.class,
        beforeName = "com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration")
@ConditionalOnClass(IdentifierGenerator.class)
@ConditionalOnBean(SnowidClient.class)
public class SnowidMybatisPlusAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(IdentifierGenerator.class)
    public SnowidIdentifierGenerator snowidIdentifierGenerator(SnowidClient client) {
        return new SnowidIdentifierGenerator(client);
    }
}
