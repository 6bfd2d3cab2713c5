package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every {@code <!-- code: name -->} block of README.md and docs/ shows a module's code as it is:
 * it equals the source lines between {@code // [docs:name]} and {@code // [/docs:name]}
 * (indentation aside; after a first line {@code // excerpt of <that file>}, if it has one), and
 * every marked region is shown.
 */
class CodeBlocksShowMarkedRegionsTest {

    private static final Pattern CODE = Pattern.compile("^<!-- code: ([a-z0-9-]+) -->$");

    @Test
    void everyCodeBlockIsTheMarkedSourceAndEveryMarkedRegionIsShown() {
        List<String> problems = new ArrayList<>();
        Map<String, MarkedRegion> regions = MarkedRegion.all(problems);
        Set<String> shown = new TreeSet<>();
        for (Path doc : DocBlock.docs()) {
            Set<String> onThisPage = new HashSet<>();
            for (DocBlock block : codeBlocks(doc, problems)) {
                String name = block.language();
                if (!onThisPage.add(name)) {
                    problems.add(block.where() + ": region '" + name + "' is shown twice on this page");
                }
                shown.add(name);
                MarkedRegion region = regions.get(name);
                if (region == null) {
                    problems.add(block.where() + ": no source marks a region // [docs:" + name + "]");
                } else if (!region.text().equals(withoutExcerptLine(block, region, problems))) {
                    problems.add(block.where() + ": block '" + name + "' differs from the source: copy the region at "
                            + region.where() + " over");
                }
            }
        }
        assertFalse(shown.isEmpty(), "no <!-- code: … --> blocks under " + DocBlock.root());
        assertEquals(new TreeSet<>(regions.keySet()), shown, "marked regions vs blocks shown");
        assertTrue(problems.isEmpty(), () -> problems.size() + " code block problem(s):\n" + String.join("\n", problems));
    }

    /** The ```java blocks right after a {@code <!-- code: name -->} line, each with the name in place of its language. */
    private static List<DocBlock> codeBlocks(Path doc, List<String> problems) {
        List<String> lines = DocBlock.lines(doc);
        List<DocBlock> named = new ArrayList<>();
        for (DocBlock block : DocBlock.of(doc)) {
            int before = block.line() - 2; // index of the line above the fence
            while (before >= 0 && lines.get(before).isBlank()) {
                before--;
            }
            Matcher code = before < 0 ? null : CODE.matcher(lines.get(before).strip());
            if (code == null || !code.matches()) {
                continue;
            }
            if (block.language().equals("java")) {
                named.add(new DocBlock(doc, block.line(), code.group(1), block.text()));
            } else {
                problems.add(block.where() + ": a <!-- code: " + code.group(1) + " --> block must be ```java");
            }
        }
        return named;
    }

    private static String withoutExcerptLine(DocBlock block, MarkedRegion region, List<String> problems) {
        block.excerptOf().ifPresent(named -> {
            if (!DocBlock.root().resolve(named).normalize().equals(region.file())) {
                problems.add(block.where() + ": `// excerpt of " + named + "` names another file than the region's, "
                        + DocBlock.root().relativize(region.file()));
            }
        });
        return block.withoutExcerptLine();
    }
}
