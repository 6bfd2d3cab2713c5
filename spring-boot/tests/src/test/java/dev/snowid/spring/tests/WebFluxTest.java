package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.client.SnowidClient;
import dev.snowid.spring.tests.flux.FluxApp;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** On WebFlux: a {@code SnowflakeId} path variable or parameter decodes, a malformed one is a 400 saying what is wrong. */
class WebFluxTest {

    @Test
    void idsConvertAndAMalformedOneIsA400() {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(FluxApp.class)
                .properties("server.port=0", "spring.main.web-application-type=reactive",
                        "snowid.lease.url=" + LeaseApi.shared().url(), "snowid.lease.secret=" + LeaseApi.SECRET)
                .run()) {
            Http http = new Http(Apps.port(app));
            long id = app.getBean(SnowidClient.class).nextId();
            for (String path : new String[] {"/flux/ids/" + id, "/flux/ids?id=" + id}) {
                HttpResponse<String> ok = http.get(path);
                assertEquals(200, ok.statusCode(), ok::body);
                assertEquals(Long.toString(id), Http.json(ok).get("id"), "written as a string: " + ok.body());
            }
            for (String path : new String[] {"/flux/ids/12x", "/flux/ids?id=12x"}) {
                HttpResponse<String> bad = http.get(path);
                assertEquals(400, bad.statusCode(), bad::body);
                Map<String, Object> body = Http.json(bad);
                assertEquals("invalid_id", body.get("error"), bad::body);
                assertTrue(((String) body.get("message")).contains("'12x' is not an ID: character 3 is 'x'"), bad::body);
            }
        }
    }
}
