package dev.snowid.bench.spring;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot web app's context start in a fresh JVM (each fork starts one context, cold), with
 * the starter (its slot leased from the local runner while the context starts: the lease round
 * trip is included) and without it (the same app, the starter's auto-configurations excluded).
 * Read as a ratio: withStarter / withoutStarter.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
@Fork(10)
@State(Scope.Benchmark)
public class SpringStartBenchmark {

    private static final String SNOWID_AUTO_CONFIGURATIONS = String.join(",",
            "dev.snowid.spring.autoconfigure.SnowidAutoConfiguration",
            "dev.snowid.spring.autoconfigure.actuate.SnowidActuatorAutoConfiguration",
            "dev.snowid.spring.autoconfigure.health.SnowidHealthAutoConfiguration",
            "dev.snowid.spring.autoconfigure.metrics.SnowidMetricsAutoConfiguration",
            "dev.snowid.spring.autoconfigure.orm.SnowidMybatisPlusAutoConfiguration",
            "dev.snowid.spring.autoconfigure.orm.SnowidHibernateAutoConfiguration",
            "dev.snowid.spring.autoconfigure.jackson.SnowidJacksonAutoConfiguration",
            "dev.snowid.spring.autoconfigure.web.SnowidWebAutoConfiguration");

    private LocalLeaseApi api;
    private ConfigurableApplicationContext context;

    @Setup(Level.Trial)
    public void startLeaseApi() {
        api = LocalLeaseApi.start();
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (context != null) {
            context.close();
        }
        api.close();
    }

    @Benchmark
    public Object withStarter() {
        context = app().run();
        return context;
    }

    @Benchmark
    public Object withoutStarter() {
        context = app().properties("spring.autoconfigure.exclude=" + SNOWID_AUTO_CONFIGURATIONS).run();
        return context;
    }

    private SpringApplicationBuilder app() {
        return new SpringApplicationBuilder(BenchApp.class)
                .properties("server.port=0", "spring.main.banner-mode=off", "logging.level.root=WARN",
                        "snowid.lease.url=" + api.url(), "snowid.lease.secret=" + LocalLeaseApi.SECRET);
    }
}
