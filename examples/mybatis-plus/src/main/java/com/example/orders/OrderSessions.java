package com.example.orders;

import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.MybatisSqlSessionFactoryBuilder;
import com.baomidou.mybatisplus.core.toolkit.GlobalConfigUtils;
import dev.snowid.client.SnowidClient;
import dev.snowid.integrations.mybatisplus.SnowidIdentifierGenerator;
import javax.sql.DataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;

/** MyBatis-Plus without Spring: a session factory whose ASSIGN_ID keys come from the client. */
public final class OrderSessions {

    private OrderSessions() {
    }

    /** @param dataSource your connection pool, e.g. HikariCP's or MyBatis's own {@code PooledDataSource} */
    public static SqlSessionFactory sessionFactory(SnowidClient ids, DataSource dataSource) {
        MybatisConfiguration configuration = new MybatisConfiguration(
                new Environment("snowid", new JdbcTransactionFactory(), dataSource));
        // Not GlobalConfigUtils.setGlobalConfig: it keeps a config already made (putIfAbsent).
        GlobalConfigUtils.getGlobalConfig(configuration).setIdentifierGenerator(new SnowidIdentifierGenerator(ids));
        configuration.addMapper(OrderMapper.class);
        return new MybatisSqlSessionFactoryBuilder().build(configuration);
    }
}
