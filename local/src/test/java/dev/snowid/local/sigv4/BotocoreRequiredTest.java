package dev.snowid.local.sigv4;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.engine.PathCommand;
import dev.snowid.testing.sigv4.AwsStandIns;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Without botocore the IAM tests fail before they start anything, saying what to install: not that something timed out. */
class BotocoreRequiredTest {

    private final String python = PathCommand.find("python3")
            .orElseThrow(() -> new IllegalStateException("no python3 on PATH: the IAM tests need python3 with botocore")).toString();

    @Test
    void aPythonWithoutBotocoreIsRefusedNamingWhatToInstall() {
        // -S leaves out site-packages, where botocore is installed: a real python3 as on a machine without it.
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> AwsStandIns.requireBotocore(List.of(python, "-S")));
        assertTrue(refused.getMessage().startsWith("install botocore (pip install botocore)"), refused.getMessage());
        assertTrue(refused.getMessage().contains("No module named 'botocore'"), refused.getMessage());
    }

    @Test
    void thePythonTheseTestsRunHasIt() {
        AwsStandIns.requireBotocore(List.of(python));
    }
}
