package dev.snowid.spring.tests.app;

import dev.snowid.SnowflakeId;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/** As examples/spring-boot's controller: IDs go out as JSON strings and come back in as a decoded {@link SnowflakeId}. */
@RestController
class InvoiceController {

    private final InvoiceRepository invoices;

    InvoiceController(InvoiceRepository invoices) {
        this.invoices = invoices;
    }

    @PostMapping("/invoices")
    Invoice create(@RequestParam("item") String item) {
        return invoices.save(new Invoice(item)); // {"id":"1869…","item":"…"}: the ID as a string
    }

    @GetMapping("/invoices/{id}")
    Invoice byId(@PathVariable("id") SnowflakeId id) { // "12x" → 400 saying what is wrong
        return invoices.findById(id.value()).orElseThrow(() -> new ResponseStatusException(HttpStatus.NOT_FOUND));
    }
}
