package com.example.invoices;

import dev.snowid.client.SnowidClient;
import dev.snowid.integrations.hibernate.SnowidIdGenerator;
import org.hibernate.SessionFactory;
import org.hibernate.boot.MetadataSources;
import org.hibernate.boot.registry.StandardServiceRegistry;
import org.hibernate.boot.registry.StandardServiceRegistryBuilder;
import org.hibernate.cfg.AvailableSettings;

/** Hibernate's native bootstrap: a session factory whose {@code @SnowidId} keys come from the client. */
public final class InvoiceSessions {

    private InvoiceSessions() {
    }

    /** @param jdbcUrl your database, e.g. {@code jdbc:h2:mem:invoices} */
    public static SessionFactory sessionFactory(SnowidClient ids, String jdbcUrl) {
        StandardServiceRegistry registry = new StandardServiceRegistryBuilder()
                .applySetting(SnowidIdGenerator.CLIENT_SETTING, ids) // the instance, not a string
                .applySetting(AvailableSettings.JAKARTA_JDBC_URL, jdbcUrl)
                .applySetting(AvailableSettings.JAKARTA_HBM2DDL_DATABASE_ACTION, "create")
                .build();
        return new MetadataSources(registry)
                .addAnnotatedClass(Invoice.class)
                .buildMetadata()
                .buildSessionFactory();
    }
}
