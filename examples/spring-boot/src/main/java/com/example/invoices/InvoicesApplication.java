package com.example.invoices;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Web, JPA on H2 and the actuator; snowid comes from the starter and application.properties alone. */
@SpringBootApplication
public class InvoicesApplication {

    public static void main(String[] args) {
        SpringApplication.run(InvoicesApplication.class, args);
    }
}
