package dev.snowid.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.ClockBehindException;
import dev.snowid.lease.ClockSkewException;
import dev.snowid.lease.LeaseStoreUnavailableException;
import dev.snowid.lease.LeaseTerms;
import dev.snowid.lease.NoFreeSlotException;
import java.util.Collections;
import dev.snowid.testing.SettingsTables;
import java.io.IOException;
import java.util.Arrays;
import dev.snowid.protocol.HolderLabel;
import org.junit.jupiter.api.Test;

/** The builder's catalogue: what it declares is what the builder checks, and what a failed build() points at. */
class ClientSettingsTest {

    @Test
    void theBuilderChecksTheRangesItsCatalogueDeclares() {
        SnowidClient.Builder builder = SnowidClient.builder();
        builder.leaseMillis(LeaseTerms.LEASE_MILLIS_RANGE.min()).leaseMillis(LeaseTerms.LEASE_MILLIS_RANGE.max());
        assertEquals("leaseMillis 4999 is out of range: allowed 5000 to 3600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> builder.leaseMillis(4_999)).getMessage());
        builder.waitForSlotUpTo(ClientSettings.Ranges.WAIT_FOR_SLOT.max());
        assertEquals("waitForSlotUpTo 3600001 is out of range: allowed 0 to 3600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> builder.waitForSlotUpTo(3_600_001)).getMessage());
        assertEquals(SnowidClient.Builder.MAX_SLOT_WAIT_MILLIS, ClientSettings.Ranges.WAIT_FOR_SLOT.max());
        assertEquals(Arrays.asList("5000", "3600000"), ClientSettings.LEASE_MILLIS.allowedValues());
        assertThrows(IllegalArgumentException.class, () -> builder.holder("x".repeat(HolderLabel.MAX_CHARS + 1)));
        builder.holder("x".repeat(HolderLabel.MAX_CHARS)).holder("orders 日本 ５");
        for (String spoof : new String[] {"orders\u202Eevil", "orders\u2028", "orders\n", "", null}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> builder.holder(spoof), spoof);
            assertTrue(refused.getMessage().startsWith("holder ") && refused.getMessage().contains(HolderLabel.ALLOWED), refused.getMessage());
            assertFalse(spoof != null && !spoof.isEmpty() && refused.getMessage().contains(spoof), "quoted escaped: " + refused.getMessage());
        }
        builder.startupDeadline(ClientSettings.Ranges.STARTUP_DEADLINE.min()).startupDeadline(ClientSettings.Ranges.STARTUP_DEADLINE.max());
        assertEquals("startupDeadline 600001 is out of range: allowed 0 to 600000 (ms)",
                assertThrows(IllegalArgumentException.class, () -> builder.startupDeadline(600_001)).getMessage());
        assertEquals(ClientSettings.DEFAULT_STARTUP_DEADLINE_MILLIS, ClientSettings.STARTUP_DEADLINE.read(null));
        assertEquals(Arrays.asList("leaseUrl", "awsIam", "signing", "secret", "allowPlainHttp", "holder", "leaseMillis", "codec", "waitForSlotUpTo",
                "startupDeadline", "snapshotHooks", "auditAtInfo", "log"), ClientSettings.CATALOGUE.names());
    }

    @Test
    void aFailedBuildNamesTheSettingToFix() {
        assertEquals(ClientSettings.WAIT_FOR_SLOT, ClientSettings.toFix(new NoFreeSlotException("full", 1_000)));
        assertEquals(ClientSettings.CODEC, ClientSettings.toFix(new EpochMismatchException(1, 2, "there")));
        assertEquals(ClientSettings.SECRET, ClientSettings.toFix(new LeaseSecretRefusedException(401, "no", 0)));
        assertNull(ClientSettings.toFix(new ClockSkewException("far", 5_000)), "no setting fixes a clock");
        assertNull(ClientSettings.toFix(new ClockBehindException("behind", 5_000, 2_000)));
        LeaseStoreUnavailableException unreachable = new LeaseStoreUnavailableException("down", 1_000, new IOException("refused"));
        assertEquals(ClientSettings.LEASE_URL, ClientSettings.toFix(unreachable));
        assertTrue(ClientSettings.unanswered(unreachable));
        LeaseStoreUnavailableException failing = new LeaseStoreUnavailableException("HTTP 500", 1_000, null);
        assertEquals(ClientSettings.LEASE_URL, ClientSettings.toFix(failing));
        assertFalse(ClientSettings.unanswered(failing));
        for (String[] refused : new String[][] {{"holder '' must be 1 to 200 characters", "holder"},
            {"leaseMillis 1 is out of range: allowed 5000 to 3600000 (ms)", "leaseMillis"},
            {"secret is not set, nor signing: give awsIam()", "secret"}, {"signing is null", "awsIam"},
            {"the lease API at x names epoch -1", "leaseUrl"}}) {
            assertEquals(refused[1], ClientSettings.toFix(new IllegalArgumentException(refused[0])).name(), refused[0]);
        }
    }

    @Test
    void theDocsSettingsTableSaysWhatTheCatalogueDeclares() {
        assertEquals(Collections.emptyList(), SettingsTables.problems("client", ClientSettings.CATALOGUE));
    }
}
