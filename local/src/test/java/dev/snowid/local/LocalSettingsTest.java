package dev.snowid.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.settings.InvalidSettingException;
import java.util.List;
import dev.snowid.testing.SettingsTables;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalSettingsTest {

    @Test
    void thePortIs8080UnlessSetAndOnlyAWholeNumberUpTo65535() {
        assertEquals(8080, LocalSettings.port(Map.of()));
        assertEquals(0, LocalSettings.port(Map.of(LocalSettings.LOCAL_PORT, "0")));
        for (String bad : new String[] {"+5", "65536", "-1", "http"}) {
            InvalidSettingException error = assertThrows(InvalidSettingException.class,
                    () -> LocalSettings.port(Map.of(LocalSettings.LOCAL_PORT, bad)), bad);
            assertEquals(LocalSettings.LOCAL_PORT, error.variable());
        }
    }

    @Test
    void aBlankLocalSecretCountsAsUnsetAndOneWithSpacesIsTrimmed() {
        assertTrue(LocalSettings.leaseSecret(Map.of(LocalSettings.LOCAL_LEASE_SECRET, "  \n")).isEmpty());
        assertEquals("s3cret", LocalSettings.leaseSecret(Map.of(LocalSettings.LOCAL_LEASE_SECRET, " s3cret\n")).orElseThrow());
    }

    @Test
    void theDocsSettingsTablesSayWhatTheCatalogueDeclares() {
        assertEquals(List.of(), SettingsTables.problems("runner", LocalSettings.CATALOGUE));
    }

    @Test
    void theRunnerWarnsAboutExactlyTheNamesItsProcessDoesNotRead() {
        assertEquals(List.of(), LocalSettings.warnings(Map.of(LocalSettings.LOCAL_LEASE_SECRET, "s", LocalSettings.LOCAL_PORT, "0",
                "SNOWID_ROLE", "ids", "SNOWID_LEASE_PRINCIPALS", "", "SNOWID_DYNALITE_DIR", "/x", "PATH", "/bin")));
        assertEquals(List.of("[unknown_setting] environment variable SNOWID_PROT is not a setting of the local runner and is ignored; did you mean"
                + " `SNOWID_PORT`?"), LocalSettings.warnings(Map.of("SNOWID_PROT", "1")));
    }
}
