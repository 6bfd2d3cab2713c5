package dev.snowid.spring.tests;

import dev.snowid.spring.tests.app.TestApp;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the test app outside Spring's test context cache, for tests that close it or expect its start to fail. */
public final class Apps {

    private Apps() {
    }

    /** The app on a random port, leasing from {@code api}, with these extra {@code key=value} properties. */
    public static ConfigurableApplicationContext run(LeaseApi api, String... properties) {
        return builder(api.url(), LeaseApi.SECRET, properties).run();
    }

    public static SpringApplicationBuilder builder(String url, String secret, String... properties) {
        List<String> all = new ArrayList<>(List.of("server.port=0"));
        if (url != null) {
            all.add("snowid.lease.url=" + url);
        }
        if (secret != null) {
            all.add("snowid.lease.secret=" + secret);
        }
        all.addAll(List.of(properties));
        return new SpringApplicationBuilder(TestApp.class).properties(all.toArray(new String[0]));
    }

    public static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }
}
