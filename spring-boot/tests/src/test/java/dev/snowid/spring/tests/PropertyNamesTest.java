package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.leaseapi.LeaseApi;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The starter warns at start-up about exactly the {@code snowid.*} properties it does not read,
 * naming the one meant; Spring Boot itself ignores them silently. Names only, never values.
 */
@ExtendWith(OutputCaptureExtension.class)
class PropertyNamesTest {

    /** The build's own snowid.* system properties of this test JVM (snowid.test.*, snowid.skipNpm), out of the way meanwhile. */
    private final Properties build = new Properties();

    @BeforeEach
    void setBuildPropertiesAside() {
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("snowid.")) {
                build.setProperty(name, System.getProperty(name));
                System.clearProperty(name);
            }
        }
    }

    @AfterEach
    void restoreBuildProperties() {
        build.stringPropertyNames().forEach(name -> System.setProperty(name, build.getProperty(name)));
    }

    @Test
    void anAppSetUpAsTheDocsShowWarnsAboutNothing(CapturedOutput output) {
        try (ConfigurableApplicationContext app = Apps.run(LeaseApi.shared(), "snowid.lease.wait-for-slot=1s",
                "snowid.lease.duration=30s", "spring.application.name=orders")) {
            assertFalse(output.getAll().contains("is not a setting of the Spring Boot starter"), output::getAll);
        }
    }

    @Test
    void aMistypedOptionalPropertyIsWarnedAboutNamingTheOneMeantButNotItsValue(CapturedOutput output) {
        try (ConfigurableApplicationContext app = Apps.run(LeaseApi.shared(), "snowid.lease.holdr=billing-7f3a91",
                "snowid.lease.waitForSlot=2s")) {
            List<String> warnings = output.getAll().lines().filter(line -> line.contains("is not a setting of the Spring Boot starter"))
                    .toList();
            assertEquals(1, warnings.size(), output::getAll);
            assertEquals(true, warnings.get(0).contains("property snowid.lease.holdr is not a setting of the Spring Boot starter and is"
                    + " ignored; did you mean `snowid.lease.holder`?"), warnings::toString);
            assertFalse(output.getAll().contains("billing-7f3a91"), "the value is not the warning's business");
        }
    }

    @Test
    void environmentVariablesOfOtherProgramsAreNotWarnedAboutButATypoIs(CapturedOutput output) {
        // The shell that runs the app may also run the local runner (SNOWID_PORT) or a build (SNOWID_TEST_*).
        StandardEnvironment environment = new StandardEnvironment();
        Map<String, Object> variables = new HashMap<>(System.getenv());
        variables.put("SNOWID_PORT", "9090");
        variables.put("SNOWID_TEST_REQUIRE_MOTO", "1");
        variables.put("SNOWID_LEASE_HOLDR", "billing-7f3a91");
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        try (ConfigurableApplicationContext app = Apps.builder(LeaseApi.shared().url(), LeaseApi.SECRET)
                .environment(environment).run()) {
            List<String> warnings = output.getAll().lines().filter(line -> line.contains("is not a setting of the Spring Boot starter"))
                    .toList();
            assertEquals(1, warnings.size(), output::getAll);
            assertTrue(warnings.get(0).contains("snowid.lease.holdr is not a setting of the Spring Boot starter and is ignored;"
                    + " did you mean `snowid.lease.holder`?"), warnings::toString);
            assertFalse(output.getAll().contains("billing-7f3a91"), "the value is not the warning's business");
        }
    }
}
