package com.example.invoices;

import dev.snowid.client.SnowidClient;
import org.hibernate.SessionFactory;

/** Leases a slot, persists an invoice through Hibernate into an in-memory H2 database, and prints its ID. */
public final class InvoicesApp {

    public static void main(String[] args) {
        try (SnowidClient ids = SnowidClient.builder()
                .leaseUrl(System.getenv().getOrDefault("SNOWID_LEASE_URL", "http://localhost:8080")) // the local runner
                .secret(() -> System.getenv("SNOWID_LEASE_SECRET"))
                .build();
             SessionFactory sessions = InvoiceSessions.sessionFactory(ids, "jdbc:h2:mem:invoices")) {
            Invoice invoice = new Invoice("ACME Ltd");
            sessions.inTransaction(session -> session.persist(invoice)); // @SnowidId: the key comes from the leased slot
            System.out.println(invoice.getId());
        }
    }
}
