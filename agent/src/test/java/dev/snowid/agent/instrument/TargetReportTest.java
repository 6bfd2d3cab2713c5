package dev.snowid.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.snowid.agent.config.Target;
import dev.snowid.agent.runtime.RedirectedCalls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The start-up note for target classes that are neither loaded nor on the application class path. */
class TargetReportTest {

    private static final String NOTE = "is not on the application class path";

    @Test
    void notesOnlyTargetClassesNeitherLoadedNorSeenNorOnTheClassPathOncePerTarget() {
        List<Target> targets = targets(
                "com.acme.legacy.LegacyIds#nextLong", // on the test class path
                "com.acme.legacy.Typo#next", "com.acme.legacy.Typo#other", // nowhere: a note for each target
                "com.acme.elsewhere.Loaded#next", // loaded before the agent, by some other loader
                "com.acme.elsewhere.Seen#next"); // loaded since: the transformer reported on it
        TargetReport report = new TargetReport(targets, new RedirectedCalls(targets.size(), () -> 1L));
        List<String> lines = stderrOf(() -> {
            report.cannotRedirect(targets.get(4), "no such method");
            report.noteMissingClasses(Collections.singleton("com.acme.elsewhere.Loaded"));
        });
        List<String> notes = new ArrayList<>();
        for (String line : lines) {
            if (line.contains(NOTE)) {
                notes.add(line.substring(line.indexOf("note: ")));
            }
        }
        assertEquals(Arrays.asList(
                "note: com.acme.legacy.Typo (of com.acme.legacy.Typo#next) " + NOTE + "; it is redirected if another class loader defines it, else check the name",
                "note: com.acme.legacy.Typo (of com.acme.legacy.Typo#other) " + NOTE + "; it is redirected if another class loader defines it, else check the name"),
                notes, lines::toString);
    }

    private static List<Target> targets(String... entries) {
        List<Target> targets = new ArrayList<>();
        for (String entry : entries) {
            targets.add(Target.parse(entry, "snowid.targets"));
        }
        return targets;
    }

    private static List<String> stderrOf(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return Arrays.asList(captured.toString(StandardCharsets.UTF_8).split("\n"));
    }
}
