package dev.snowid.integrations.mybatisplus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import dev.snowid.IdUnavailableException;
import dev.snowid.client.SnowidClient;
import dev.snowid.integrations.LeasedIds;
import com.example.orders.Order;
import com.example.orders.OrderMapper;
import com.example.orders.OrderSessions;
import dev.snowid.integrations.Threads;
import dev.snowid.lease.Lease;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.ibatis.datasource.pooled.PooledDataSource;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * MyBatis-Plus (no Spring) inserting through a {@code BaseMapper} on H2, its {@code ASSIGN_ID}
 * IDs drawn from a {@link SnowidClient} that leased its slot from a real lease API.
 */
@ExtendWith(DynamoDbEngine.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SnowidIdentifierGeneratorTest {

    static final int THREADS = 4;
    static final int INSERTS_PER_THREAD = 5_000;

    @Test
    void concurrentInsertsStoreUniqueIdsFromTheLeasedSlot(TestTable table) throws Exception {
        try (LeaseApi api = LeaseApi.start(table); SnowidClient ids = api.newClient()) {
            Lease leased = ids.currentLease().orElseThrow(AssertionError::new);
            SqlSessionFactory factory = sessionFactory(ids, h2("mybatis-plus-unique"));

            Threads.run(THREADS, thread -> {
                try (SqlSession session = factory.openSession(true)) {
                    OrderMapper orders = session.getMapper(OrderMapper.class);
                    for (int i = 0; i < INSERTS_PER_THREAD; i++) {
                        Order order = new Order("item " + thread + "/" + i);
                        assertEquals(1, orders.insert(order));
                    }
                }
            });

            List<Long> stored = new ArrayList<>();
            try (SqlSession session = factory.openSession()) {
                session.getMapper(OrderMapper.class).selectList(null).forEach(order -> stored.add(order.getId()));
            }
            LeasedIds.assertIssuedUnder(leased, ids, stored, THREADS * INSERTS_PER_THREAD);
            // MyBatis-Plus points its static IdWorker at the installed generator as well.
            LeasedIds.assertIssuedUnder(leased, ids, List.of(IdWorker.getId()), 1);
        }
    }

    @Test
    void aClosedClientFailsTheInsertAndNothingFallsBackToALocalId(TestTable table) throws Exception {
        try (LeaseApi api = LeaseApi.start(table)) {
            SnowidClient ids = api.newClient();
            SqlSessionFactory factory = sessionFactory(ids, h2("mybatis-plus-closed"));
            try (SqlSession session = factory.openSession(true)) {
                OrderMapper orders = session.getMapper(OrderMapper.class);
                orders.insert(new Order("before close"));
                ids.close();

                Order refused = new Order("after close");
                RuntimeException error = assertThrows(RuntimeException.class, () -> orders.insert(refused));
                assertTrue(causedBy(error, IdUnavailableException.class), () -> "not the client's refusal: " + error);
                assertNull(refused.getId(), "no ID was assigned");
                assertEquals(1, orders.selectCount(null), "only the row inserted before close");
            }
            // ASSIGN_UUID is MyBatis-Plus's own random UUID, which needs no lease.
            assertTrue(new SnowidIdentifierGenerator(ids).nextUUID(null).matches("[0-9a-f]{32}"));
        }
    }

    private static SqlSessionFactory sessionFactory(SnowidClient ids, DataSource dataSource) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement ddl = connection.createStatement()) {
            ddl.execute("create table orders (id bigint primary key, item varchar(100) not null)");
        }
        return OrderSessions.sessionFactory(ids, dataSource);
    }

    private static DataSource h2(String name) {
        PooledDataSource pool = new PooledDataSource("org.h2.Driver", "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "");
        pool.setPoolMaximumActiveConnections(THREADS + 1);
        return pool;
    }

    private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }
}
