package dev.snowid.integrations.hibernate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.example.invoices.Invoice;
import com.example.invoices.InvoiceSessions;
import dev.snowid.IdUnavailableException;
import dev.snowid.client.SnowidClient;
import dev.snowid.integrations.LeasedIds;
import dev.snowid.integrations.Threads;
import dev.snowid.lease.Lease;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.Version;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Hibernate ORM persisting {@link Invoice}s on H2 through a real {@code SessionFactory}, their
 * {@link SnowidId} IDs drawn from a {@link SnowidClient} that leased its slot from a real lease API.
 */
@ExtendWith(DynamoDbEngine.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class SnowidIdGeneratorTest {

    static final int THREADS = 4;
    static final int INSERTS_PER_THREAD = 5_000;
    static final int PER_TRANSACTION = 500;

    /** The build runs these tests on two Hibernate versions; each run must be on the one it names. */
    @Test
    void runsOnTheHibernateVersionTheBuildNames() {
        String expected = System.getProperty("snowid.test.hibernateVersion");
        assertEquals(expected, Version.getVersionString(), "-Dsnowid.test.hibernateVersion names the Hibernate ORM version expected"
                + " on the class path (the build sets it)");
    }

    @Test
    void concurrentPersistsStoreUniqueIdsFromTheLeasedSlot(TestTable table) throws Exception {
        try (LeaseApi api = LeaseApi.start(table); SnowidClient ids = api.newClient();
             SessionFactory factory = sessionFactory(ids, h2("hibernate-unique"))) {
            Lease leased = ids.currentLease().orElseThrow(AssertionError::new);

            Threads.run(THREADS, thread -> {
                try (Session session = factory.openSession()) {
                    for (int i = 0; i < INSERTS_PER_THREAD; i += PER_TRANSACTION) {
                        Transaction transaction = session.beginTransaction();
                        for (int j = i; j < i + PER_TRANSACTION; j++) {
                            session.persist(new Invoice("customer " + thread + "/" + j));
                        }
                        transaction.commit();
                        session.clear();
                    }
                }
            });

            List<Long> stored;
            try (Session session = factory.openSession()) {
                stored = session.createQuery("select i.id from Invoice i", Long.class).getResultList();
            }
            LeasedIds.assertIssuedUnder(leased, ids, stored, THREADS * INSERTS_PER_THREAD);
        }
    }

    @Test
    void aClosedClientFailsThePersistAndNothingFallsBackToALocalId(TestTable table) {
        try (LeaseApi api = LeaseApi.start(table); SnowidClient ids = api.newClient();
             SessionFactory factory = sessionFactory(ids, h2("hibernate-closed"))) {
            factory.inTransaction(session -> session.persist(new Invoice("before close")));
            ids.close();

            Invoice refused = new Invoice("after close");
            try (Session session = factory.openSession()) {
                Transaction transaction = session.beginTransaction();
                RuntimeException error = assertThrows(RuntimeException.class, () -> {
                    session.persist(refused);
                    session.flush();
                });
                assertTrue(causedBy(error, IdUnavailableException.class), () -> "not the client's refusal: " + error);
                transaction.rollback();
            }
            assertNull(refused.getId(), "no ID was assigned");
            long rows = factory.fromTransaction(session -> session.createQuery("select count(i) from Invoice i", Long.class).getSingleResult());
            assertEquals(1, rows, "only the row persisted before close");
        }
    }

    @Test
    void withoutTheClientSettingTheSessionFactoryDoesNotStartAndNamesTheSetting() {
        String error = startFailure(Invoice.class, "hibernate-unset");
        assertTrue(error.contains("needs the setting '" + SnowidIdGenerator.CLIENT_SETTING + "'"), error);
    }

    @Test
    void anIdThatIsNotALongStopsTheStartAndNamesTheProperty() {
        String error = startFailure(TextKeyedNote.class, "hibernate-text-key");
        assertTrue(error.contains("TextKeyedNote.id") && error.contains("must be a long or Long"), error);
    }

    /** The messages of the failure to start a session factory for {@code entity} without the client setting. */
    private static String startFailure(Class<?> entity, String database) {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting(AvailableSettings.JAKARTA_JDBC_URL, h2(database))
                .build();
        try {
            RuntimeException error = assertThrows(RuntimeException.class,
                    () -> new MetadataSources(registry).addAnnotatedClass(entity).buildMetadata().buildSessionFactory().close());
            return messages(error);
        } finally {
            StandardServiceRegistryBuilder.destroy(registry);
        }
    }

    private static SessionFactory sessionFactory(SnowidClient ids, String jdbcUrl) {
        return InvoiceSessions.sessionFactory(ids, jdbcUrl);
    }

    private static String h2(String name) {
        return "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
    }

    private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (type.isInstance(e)) {
                return true;
            }
        }
        return false;
    }

    private static String messages(Throwable error) {
        StringBuilder all = new StringBuilder();
        for (Throwable e = error; e != null; e = e.getCause()) {
            all.append(e).append('\n');
        }
        return all.toString();
    }
}
