package dev.snowid.bench.spring;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import dev.snowid.client.SnowidClient;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * One ID through the starter's {@code SnowidClient} bean against one from a {@code SnowidClient}
 * built by hand, each on its own slot of the same local lease API, in one run: the bean is the
 * client itself (no proxy), so the ratio should read 1.00. Both are bounded by the format's
 * 4,096 IDs per ms per slot. Also through the MyBatis-Plus generator bean.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class SpringBeanNextIdBenchmark {

    private LocalLeaseApi api;
    private ConfigurableApplicationContext context;
    private SnowidClient bean;
    private IdentifierGenerator generator;
    private SnowidClient direct;

    @Setup
    public void setUp() {
        api = LocalLeaseApi.start();
        context = new SpringApplicationBuilder(BenchApp.class)
                .properties("server.port=0", "spring.main.banner-mode=off", "logging.level.root=WARN",
                        "snowid.lease.url=" + api.url(), "snowid.lease.secret=" + LocalLeaseApi.SECRET)
                .run();
        bean = context.getBean(SnowidClient.class);
        generator = context.getBean(IdentifierGenerator.class);
        direct = SnowidClient.builder().leaseUrl(api.url()).secret(LocalLeaseApi.SECRET).build();
    }

    @TearDown
    public void tearDown() {
        direct.close();
        context.close();
        api.close();
    }

    @Benchmark
    public long starterBean() {
        return bean.nextId();
    }

    @Benchmark
    public long directClient() {
        return direct.nextId();
    }

    @Benchmark
    public Number mybatisPlusGenerator() {
        return generator.nextId(null);
    }
}
