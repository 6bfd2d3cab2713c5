package dev.snowid.spring.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.leaseapi.LeaseApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * An app with the starter, at Boot's default log level, leasing from the real lease API: it logs
 * one snowid line, its lease at start-up, and no audit line until {@code snowid.lease.audit-at-info}
 * raises them to INFO.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuietLogTest {

    /** The client's audit logger, as Boot's console pattern names it. */
    private static final String CLIENT_AUDIT = "dev.snowid.client.audit";

    @Test
    void byDefaultTheLeaseAtStartUpIsTheOnlyLineAndNoAuditLine(CapturedOutput output) {
        try (ConfigurableApplicationContext app = Apps.run(LeaseApi.shared(), "snowid.lease.holder=quiet-app")) {
            assertTrue(app.isRunning());
        }
        String all = output.getAll();
        assertEquals(1, all.lines().filter(line -> line.contains("dev.snowid")).count(),
                () -> "one snowid line, the lease at start-up:\n" + all);
        assertTrue(all.contains("leasing from "), all);
        // The lease API runs in this JVM: its own audit lines are the function's, not the client's.
        assertFalse(all.contains(CLIENT_AUDIT), () -> "no audit line by default:\n" + all);
    }

    @Test
    void auditAtInfoShowsTheGrantAndTheRelease(CapturedOutput output) {
        try (ConfigurableApplicationContext app = Apps.run(LeaseApi.shared(), "snowid.lease.holder=audited-app",
                "snowid.lease.audit-at-info=true")) {
            assertTrue(app.isRunning());
        }
        String all = output.getAll();
        assertEquals(2, all.lines().filter(line -> line.contains(CLIENT_AUDIT)
                && (line.contains("\"event\":\"granted\"") || line.contains("\"event\":\"released\""))).count(), all);
    }
}
