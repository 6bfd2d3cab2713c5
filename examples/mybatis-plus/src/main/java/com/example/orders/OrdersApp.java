package com.example.orders;

import dev.snowid.client.SnowidClient;
import org.apache.ibatis.session.SqlSession;
import org.h2.jdbcx.JdbcDataSource;

/** Leases a slot, inserts an order through MyBatis-Plus into an in-memory H2 database, and prints its ID. */
public final class OrdersApp {

    public static void main(String[] args) {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1;INIT=CREATE TABLE IF NOT EXISTS orders(id BIGINT PRIMARY KEY, item VARCHAR(100))");
        try (SnowidClient ids = SnowidClient.builder()
                .leaseUrl(System.getenv().getOrDefault("SNOWID_LEASE_URL", "http://localhost:8080")) // the local runner
                .secret(() -> System.getenv("SNOWID_LEASE_SECRET"))
                .build();
             SqlSession session = OrderSessions.sessionFactory(ids, h2).openSession(true)) {
            Order order = new Order("book");
            session.getMapper(OrderMapper.class).insert(order); // ASSIGN_ID: the key comes from the leased slot
            System.out.println(order.getId());
        }
    }
}
