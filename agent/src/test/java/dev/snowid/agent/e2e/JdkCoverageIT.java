package dev.snowid.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The end-to-end tests run on every JDK found; this one fails when a required JDK is not among them. */
class JdkCoverageIT {

    @Test
    void everyRequiredJdkIsTested() {
        List<Jdk> jdks = Jdk.all();
        System.out.println("[e2e] child JVMs run on: " + jdks);
        for (int major : Jdk.REQUIRED) {
            assertTrue(jdks.stream().anyMatch(jdk -> jdk.major() == major),
                    () -> "no JDK " + major + " found, so the agent is not tested on it. Found: "
                            + jdks.stream().map(Jdk::toString).collect(Collectors.joining(", "))
                            + ". Install one under /usr/lib/jvm (Temurin 25: /usr/lib/jvm/temurin-25-jdk-amd64 on the project's machines)"
                            + " or list java homes in SNOWID_TEST_JDKS, separated by ':'");
        }
    }
}
