package dev.snowid.spring.tests.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An ordinary Spring Boot app: web, actuator, Spring Data JPA on Hibernate, MyBatis-Plus, H2; snowid from the starter alone. */
@SpringBootApplication
public class TestApp {
}
