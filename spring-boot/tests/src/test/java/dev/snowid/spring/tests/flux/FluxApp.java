package dev.snowid.spring.tests.flux;

import dev.snowid.SnowflakeId;
import java.util.Map;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** A WebFlux app: the same conversion of IDs at the HTTP boundary as on MVC. */
@SpringBootApplication
@RestController
public class FluxApp {

    @GetMapping("/flux/ids/{id}")
    Map<String, Object> byPath(@PathVariable("id") SnowflakeId id) {
        return Map.of("id", id, "machine", id.machine());
    }

    @GetMapping("/flux/ids")
    Map<String, Object> byParam(@RequestParam("id") SnowflakeId id) {
        return Map.of("id", id, "machine", id.machine());
    }
}
