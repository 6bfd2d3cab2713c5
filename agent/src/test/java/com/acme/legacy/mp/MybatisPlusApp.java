package com.acme.legacy.mp;

import com.baomidou.mybatisplus.core.MybatisConfiguration;
import com.baomidou.mybatisplus.core.MybatisSqlSessionFactoryBuilder;
import com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator;
import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.toolkit.GlobalConfigUtils;
import com.baomidou.mybatisplus.core.toolkit.IdWorker;
import com.baomidou.mybatisplus.core.toolkit.Sequence;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.ibatis.datasource.unpooled.UnpooledDataSource;
import org.apache.ibatis.mapping.Environment;
import org.apache.ibatis.session.SqlSession;
import org.apache.ibatis.session.SqlSessionFactory;
import org.apache.ibatis.transaction.jdbc.JdbcTransactionFactory;

/**
 * {@code MybatisPlusApp <ids file> <threads> <calls per thread> <inserts>}: a MyBatis-Plus
 * application on an in-memory H2 database. It inserts entities whose {@code @TableId(type =
 * ASSIGN_ID)} MyBatis-Plus fills (and reads the stored IDs back), and, from many threads at once,
 * takes IDs from every other public path: {@code IdWorker}, {@code DefaultIdentifierGenerator},
 * the {@code IdentifierGenerator} interface, {@code new Sequence(…)}. Its own generators use
 * nodes 1:1 and 2:2 or one derived from the MAC address, so an ID not from snowid's node shows.
 */
public final class MybatisPlusApp {

    static final int PATHS = 8;

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[1]);
        int perThread = Integer.parseInt(args[2]);
        int inserts = Integer.parseInt(args[3]);
        UnpooledDataSource dataSource = new UnpooledDataSource("org.h2.Driver", "jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1", "sa", "");
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("create table orders (id bigint primary key, item varchar(40))");
        }
        MybatisConfiguration configuration = new MybatisConfiguration(new Environment("fixture", new JdbcTransactionFactory(), dataSource));
        configuration.addMapper(OrderMapper.class);
        SqlSessionFactory sessions = new MybatisSqlSessionFactoryBuilder().build(configuration);
        IdentifierGenerator framework = GlobalConfigUtils.getGlobalConfig(configuration).getIdentifierGenerator();

        long[][] results = new long[threads + 1][];
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int index = t;
            workers.add(new Thread(() -> results[index] = callMany(perThread, framework)));
        }
        workers.forEach(Thread::start);
        results[threads] = insert(sessions, inserts);
        for (Thread worker : workers) {
            worker.join();
        }
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[0])))) {
            for (long[] batch : results) {
                for (long id : batch) {
                    out.writeLong(id);
                }
            }
        }
        System.out.println("DONE " + ((long) threads * perThread + inserts));
    }

    private static long[] callMany(int count, IdentifierGenerator framework) {
        DefaultIdentifierGenerator own = new DefaultIdentifierGenerator(1, 1);
        IdentifierGenerator viaInterface = new DefaultIdentifierGenerator(2, 2); // calls the bridge method nextId(Object)Number
        Sequence sequence = new Sequence(2, 2);
        Order entity = new Order();
        long[] got = new long[count];
        for (int i = 0; i < count; i++) {
            switch (i % PATHS) {
                case 0: got[i] = IdWorker.getId(); break;
                case 1: got[i] = Long.parseLong(IdWorker.getIdStr()); break;
                case 2: got[i] = IdWorker.getId(entity); break;
                case 3: got[i] = Long.parseLong(IdWorker.getIdStr(entity)); break;
                case 4: got[i] = own.nextId(entity); break;
                case 5: got[i] = viaInterface.nextId(entity).longValue(); break;
                case 6: got[i] = framework.nextId(entity).longValue(); break;
                default: got[i] = sequence.nextId(); break;
            }
        }
        return got;
    }

    /** Inserts through MyBatis-Plus, then checks that the database holds exactly the IDs the entities got. */
    private static long[] insert(SqlSessionFactory sessions, int count) throws Exception {
        long[] ids = new long[count];
        try (SqlSession session = sessions.openSession(true)) {
            OrderMapper mapper = session.getMapper(OrderMapper.class);
            for (int i = 0; i < count; i++) {
                Order order = new Order();
                order.setItem("item " + i);
                mapper.insert(order);
                ids[i] = order.getId();
            }
            Set<Long> stored = new HashSet<>();
            try (Statement statement = session.getConnection().createStatement();
                 ResultSet rows = statement.executeQuery("select id from orders")) {
                while (rows.next()) {
                    stored.add(rows.getLong(1));
                }
            }
            for (long id : ids) {
                if (!stored.remove(id)) {
                    throw new IllegalStateException("the entity got ID " + id + " but the database does not hold it");
                }
            }
            if (!stored.isEmpty()) {
                throw new IllegalStateException("the database holds IDs no entity got: " + stored.size());
            }
        }
        System.out.println("INSERTED " + count);
        return ids;
    }
}
