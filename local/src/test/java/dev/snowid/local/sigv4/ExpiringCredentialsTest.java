package dev.snowid.local.sigv4;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.local.LocalRunner;
import dev.snowid.testing.engine.DynamoDbEngine;
import dev.snowid.testing.engine.TestTable;
import dev.snowid.testing.sigv4.AwsStandIns;
import dev.snowid.testing.sigv4.StandInStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Container credentials that expire after a minute (real ones rotate about hourly), and a client
 * that renews its lease past their expiry: it keeps signing with fresh credentials, because the
 * SDK's provider refetches them before they expire. The proxy refuses any request signed with
 * credentials past their expiry, so one stale signature would fail the renewal and show here.
 */
@ExtendWith(DynamoDbEngine.class)
class ExpiringCredentialsTest {

    private static final Duration VALID_FOR = Duration.ofSeconds(60);
    private static final Duration RUN = Duration.ofSeconds(80); // past one expiry: a client that never refetched fails
    private static final Pattern RESULT = Pattern.compile("RESULT ids=(\\d+) renewals=(\\d+) renewalFailures=(\\d+) lost=(\\d+)");

    @TempDir
    Path home;

    @Test
    void aClientRenewingPastTheCredentialsExpirySignsWithFreshCredentialsThroughout(TestTable table) {
        try (LocalRunner runner = LocalRunner.start(CredentialSourcesTest.runnerEnvironment(table));
             AwsStandIns standIns = AwsStandIns.start(new AwsStandIns.Options(runner.baseUri(), CredentialSourcesTest.UPSTREAM_SECRET)
                     .credentialsValidFor(VALID_FOR))) {
            String output = WorkloadJvm.run(standIns.proxy().toString(), RUN, home,
                    Map.of("AWS_CONTAINER_CREDENTIALS_FULL_URI", standIns.containerCredentials().toString()));
            Matcher result = RESULT.matcher(output);
            assertTrue(result.find(), output);
            StandInStats stats = standIns.stats();
            assertEquals(List.of(), stats.rejected(), "no request was signed with expired credentials: " + stats);
            long renewals = Long.parseLong(result.group(2));
            assertTrue(renewals >= 25, "a 5 s lease renewed about every 2.5 s for 80 s: " + output);
            assertEquals("0", result.group(3), "no renewal failed: " + output);
            assertEquals("0", result.group(4), "no lease lost: " + output);
            assertTrue(stats.keysUsed().size() >= 2, "a fresh set of credentials signed after the first expired: " + stats.keysUsed());
            assertEquals(stats.verified(), stats.forwarded().size());
        }
    }
}
