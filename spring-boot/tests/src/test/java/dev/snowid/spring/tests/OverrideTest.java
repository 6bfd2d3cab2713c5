package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import dev.snowid.SnowflakeCodec;
import dev.snowid.client.SnowidClient;
import dev.snowid.spring.autoconfigure.SnowidAutoConfiguration;
import dev.snowid.spring.autoconfigure.SnowidLeaseLifecycle;
import dev.snowid.spring.autoconfigure.actuate.SecretSanitizer;
import dev.snowid.spring.autoconfigure.actuate.SnowidActuatorAutoConfiguration;
import dev.snowid.spring.autoconfigure.health.SnowidHealthAutoConfiguration;
import dev.snowid.spring.autoconfigure.jackson.SnowidJacksonAutoConfiguration;
import dev.snowid.spring.autoconfigure.metrics.SnowidMeters;
import dev.snowid.spring.autoconfigure.metrics.SnowidMetricsAutoConfiguration;
import dev.snowid.spring.autoconfigure.orm.SnowidHibernateAutoConfiguration;
import dev.snowid.spring.autoconfigure.orm.SnowidMybatisPlusAutoConfiguration;
import dev.snowid.spring.autoconfigure.web.IdAnswerMvcResolver;
import dev.snowid.spring.autoconfigure.web.SnowflakeIdConverter;
import dev.snowid.spring.autoconfigure.web.SnowidWebAutoConfiguration;
import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** Every bean the starter defines gives way to the application's own: one test per bean. */
class OverrideTest {

    private static final String[] LEASE = {"snowid.lease.url=" + LeaseApi.shared().url(), "snowid.lease.secret=" + LeaseApi.SECRET};

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SnowidAutoConfiguration.class, SnowidActuatorAutoConfiguration.class,
                    SnowidHealthAutoConfiguration.class, SnowidMetricsAutoConfiguration.class, SnowidMybatisPlusAutoConfiguration.class,
                    SnowidHibernateAutoConfiguration.class, SnowidJacksonAutoConfiguration.class, SnowidWebAutoConfiguration.class))
            .withPropertyValues(LEASE);

    @Test
    void theApplicationsClientWinsAndNoOtherSlotIsLeased() {
        try (SnowidClient own = SnowidClient.builder().leaseUrl(LeaseApi.shared().url()).secret(LeaseApi.SECRET).holder("own").build()) {
            // No snowid.lease.* at all: were the starter to build a client, start-up would fail.
            new WebApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(SnowidAutoConfiguration.class, SnowidMetricsAutoConfiguration.class))
                    .withBean(SnowidClient.class, () -> own)
                    .run(context -> {
                        assertTrue(context.getStartupFailure() == null, () -> "started: " + context.getStartupFailure());
                        assertSame(own, context.getBean(SnowidClient.class));
                        assertEquals(1, context.getBeansOfType(SnowidClient.class).size());
                        assertEquals(1, context.getBeansOfType(SnowidMeters.class).size(), "the rest still wires to the app's client");
                    });
        }
    }

    @Test
    void disabledThereIsNoClientAndNoLease() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(SnowidAutoConfiguration.class, SnowidHealthAutoConfiguration.class,
                        SnowidMetricsAutoConfiguration.class, SnowidWebAutoConfiguration.class))
                .withPropertyValues("snowid.enabled=false") // and no snowid.lease.*: leasing would fail
                .run(context -> {
                    assertTrue(context.getStartupFailure() == null, () -> "started: " + context.getStartupFailure());
                    assertEquals(0, context.getBeansOfType(SnowidClient.class).size());
                    assertEquals(0, context.getBeansOfType(SnowidMeters.class).size());
                    assertTrue(!context.containsBean(SnowidHealthAutoConfiguration.BEAN));
                });
    }

    @Test
    void theApplicationsLifecycleWins() {
        try (SnowidClient own = SnowidClient.builder().leaseUrl(LeaseApi.shared().url()).secret(LeaseApi.SECRET).build()) {
            assertOverridden(SnowidLeaseLifecycle.class, () -> new SnowidLeaseLifecycle(own));
        }
    }

    @Test
    void theApplicationsMetersWin() {
        assertOverridden(SnowidMeters.class, () -> new SnowidMeters(null));
    }

    @Test
    void theApplicationsIdentifierGeneratorWins() {
        IdentifierGenerator own = entity -> 42L;
        runner.withBean(IdentifierGenerator.class, () -> own).run(context -> {
            assertSame(own, context.getBean(IdentifierGenerator.class));
            assertEquals(1, context.getBeansOfType(IdentifierGenerator.class).size());
        });
    }

    @Test
    void theApplicationsHealthIndicatorWins() {
        assertOverriddenByName(SnowidHealthAutoConfiguration.BEAN);
    }

    @Test
    void theApplicationsHibernateCustomizerWins() {
        assertOverriddenByName(SnowidHibernateAutoConfiguration.BEAN);
    }

    @Test
    void theApplicationsJacksonModuleWins() throws ReflectiveOperationException {
        // By name: a Boot line has one Jackson or both, and a class naming the other would not load.
        boolean any = false;
        for (String[] line : new String[][] {{"com.fasterxml.jackson.databind.Module", "SnowidJackson2Module"},
                {"tools.jackson.databind.JacksonModule", "SnowidJackson3Module"}}) {
            if (present(line[0])) {
                Class<?> module = Class.forName("dev.snowid.spring.autoconfigure.jackson." + line[1]);
                Object mine = module.getConstructor(SnowflakeCodec.class).newInstance(SnowflakeCodec.TWITTER);
                assertOverridden(module, mine);
                any = true;
            }
        }
        assertTrue(any, "a Jackson line is present");
    }

    @Test
    void theApplicationsConverterWins() {
        assertOverridden(SnowflakeIdConverter.class, () -> new SnowflakeIdConverter(SnowflakeCodec.TWITTER));
    }

    @Test
    void theApplicationsIdAnswerResolverWins() {
        assertOverridden(IdAnswerMvcResolver.class, IdAnswerMvcResolver::new);
    }

    @Test
    void theApplicationsSanitizerWins() {
        assertOverridden(SecretSanitizer.class, SecretSanitizer::new);
    }

    private <T> void assertOverridden(Class<T> type, Supplier<T> own) {
        assertOverridden(type, own.get());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void assertOverridden(Class type, Object mine) {
        runner.withBean(type, () -> mine).run(context -> {
            assertTrue(context.getStartupFailure() == null, () -> "started: " + context.getStartupFailure());
            assertEquals(1, context.getBeansOfType(type).size(), type.getSimpleName());
            assertSame(mine, context.getBean(type), type.getSimpleName());
        });
        runner.run(context -> assertEquals(1, context.getBeansOfType(type).size(), "the starter's own " + type.getSimpleName()));
    }

    private void assertOverriddenByName(String name) {
        Object mine = new Object();
        runner.withBean(name, Object.class, () -> mine).run(context -> assertSame(mine, context.getBean(name)));
        runner.run(context -> assertTrue(context.containsBean(name), "the starter's own " + name));
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, OverrideTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
