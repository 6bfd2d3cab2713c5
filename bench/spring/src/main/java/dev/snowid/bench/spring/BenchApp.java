package dev.snowid.bench.spring;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** The app both start-up benchmarks start: a web app with one controller; with or without the starter's auto-configuration. */
@SpringBootApplication
@RestController
public class BenchApp {

    @GetMapping("/ping")
    String ping() {
        return "pong";
    }
}
