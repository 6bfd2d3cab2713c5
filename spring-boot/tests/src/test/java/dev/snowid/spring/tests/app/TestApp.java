package dev.snowid.spring.tests.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An ordinary Spring Boot app: web, actuator, Spring Data JPA on Hibernate, MyBatis-Plus, H2; snowid from the starter alone. */
@SpringBootApplication
public class TestApp {

    /** For a test that starts the app in a JVM of its own (a class path without the AWS SDK). */
    public static void main(String[] args) {
        SpringApplication.run(TestApp.class, args);
    }
}
