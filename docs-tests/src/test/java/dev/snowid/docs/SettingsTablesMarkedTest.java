package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.testing.SettingsTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every settings table in README.md and docs/ is marked {@code <!-- settings: <front end> -->}
 * with one of the six front ends, and each front end has one: each module's own test then holds
 * its marked tables to its catalogue, field by field ({@link SettingsTables}). A table moved to
 * another page keeps its marker, and stays checked.
 */
class SettingsTablesMarkedTest {

    @Test
    void everyMarkerNamesAFrontEndAndEveryFrontEndHasATable() {
        Map<String, String> markers = SettingsTables.markers();
        List<String> unknown = new ArrayList<>();
        markers.forEach((where, frontEnd) -> {
            if (!SettingsTables.FRONT_ENDS.contains(frontEnd)) {
                unknown.add(where + ": <!-- settings: " + frontEnd + " --> names no front end; they are " + SettingsTables.FRONT_ENDS);
            }
        });
        assertEquals(List.of(), unknown);
        assertEquals(new TreeSet<>(SettingsTables.FRONT_ENDS), new TreeSet<>(markers.values()), "the front ends with a marked table");
    }

    @Test
    void everyTableOfSettingsIsMarked() {
        // A table with a default column whose first column names SNOWID_* variables or snowid.* properties is a settings table.
        List<String> unmarked = new ArrayList<>();
        for (java.nio.file.Path doc : DocBlock.docs()) {
            List<String> lines = DocBlock.lines(doc);
            for (int i = 2; i < lines.size(); i++) {
                boolean firstRow = lines.get(i - 1).startsWith("|---") && lines.get(i - 2).contains("default")
                        && lines.get(i).matches("\\| `(SNOWID_[A-Z_]+|snowid\\.[a-zA-Z.-]+)` \\|.*");
                if (firstRow && !(i >= 3 && lines.get(i - 3).startsWith("<!-- settings: "))) {
                    unmarked.add(DocBlock.where(doc, i + 1) + ": a settings table without a <!-- settings: … --> marker");
                }
            }
        }
        assertTrue(unmarked.isEmpty(), () -> String.join("\n", unmarked));
    }
}
