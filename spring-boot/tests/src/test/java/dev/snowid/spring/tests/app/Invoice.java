package dev.snowid.spring.tests.app;

import dev.snowid.integrations.hibernate.SnowidId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A JPA entity whose key Hibernate takes from the starter's client: no code, only the annotation. */
@Entity
@Table(name = "invoices")
public class Invoice {

    @Id
    @SnowidId
    private Long id;
    private String item;

    protected Invoice() {
    }

    public Invoice(String item) {
        this.item = item;
    }

    public Long getId() {
        return id;
    }

    public String getItem() {
        return item;
    }
}
