package dev.snowid.spring.tests.app;

import dev.snowid.SnowflakeId;
import dev.snowid.client.SnowidClient;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class IdController {

    private final OrderMapper orders;
    private final SnowidClient ids;
    private final ShutdownProbe shutdown;

    IdController(OrderMapper orders, SnowidClient ids, ShutdownProbe shutdown) {
        this.orders = orders;
        this.ids = ids;
        this.shutdown = shutdown;
    }

    @PostMapping("/orders")
    Order newOrder(@RequestParam("item") String item) {
        Order order = new Order(item);
        orders.insert(order);
        return order;
    }

    @GetMapping("/ids/{id}")
    Map<String, Object> byPath(@PathVariable("id") SnowflakeId id) {
        return fields(id);
    }

    @GetMapping("/ids")
    Map<String, Object> byParam(@RequestParam("id") SnowflakeId id) {
        return fields(id);
    }

    @PostMapping("/ids/echo")
    Map<String, Object> echo(@RequestBody IdBody body) {
        return fields(body.getId());
    }

    /** Answers only once the context has begun to close: an ID issued by a request in flight during shutdown. */
    @GetMapping("/slow")
    Map<String, Object> slow() throws InterruptedException {
        shutdown.enter();
        return fields(ids.codec().decode(ids.nextId()));
    }

    private static Map<String, Object> fields(SnowflakeId id) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("id", id);
        fields.put("datacenter", id.datacenter());
        fields.put("machine", id.machine());
        fields.put("unixMillis", id.unixMillis());
        return fields;
    }
}
