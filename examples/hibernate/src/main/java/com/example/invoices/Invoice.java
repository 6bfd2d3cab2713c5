package com.example.invoices;

import dev.snowid.integrations.hibernate.SnowidId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "invoices")
public class Invoice {

    @Id
    @SnowidId
    private Long id;
    private String customer;

    protected Invoice() {
    }

    public Invoice(String customer) {
        this.customer = customer;
    }

    public Long getId() {
        return id;
    }

    public String getCustomer() {
        return customer;
    }
}
