package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.region.RegionGuard;
import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The region guard's confirmation interval, as the guides state it, is the one the code keeps. */
class RegionGuardFiguresTest {

    @Test
    void theGuidesStateTheConfirmationIntervalTheGuardKeeps() throws IOException {
        long minutes = TimeUnit.MILLISECONDS.toMinutes(RegionGuard.CONFIRMATION_MILLIS);
        String guide = Files.readString(DocBlock.root().resolve("docs/multi-region.md"));
        String protocol = Files.readString(DocBlock.root().resolve("docs/protocol.md"));

        assertTrue(guide.contains("every " + minutes + " minutes"), "multi-region.md states the interval as " + minutes + " minutes");
        assertTrue(protocol.contains("every " + minutes + " min"), "protocol.md states the interval as " + minutes + " min");
    }
}
