package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every ```java, ```xml and ```properties block of README.md and docs/ shows a file of
 * {@code examples/} as it is, so that what a reader pastes from a guide is what the example
 * builds and runs (CI runs every example: {@code examples/run-all.sh}):
 * <ul>
 * <li>the whole file, marked by a line {@code <!-- file: examples/… -->} right above the block:
 * the block is the file, character for character;</li>
 * <li>an excerpt, whose first line names the file ({@code // excerpt of examples/…},
 * {@code <!-- excerpt of examples/… -->}, {@code # excerpt of examples/…}): the file holds the
 * block's other lines, together and in that order (indentation and blank lines aside);</li>
 * <li>or snowid's own source, shown for reference: a {@code <!-- code: name -->} block, which
 * {@link CodeBlocksShowMarkedRegionsTest} holds to the module's source.</li>
 * </ul>
 */
class ExampleFilesShownTest {

    static final Set<String> LANGUAGES = Set.of("java", "xml", "properties");
    static final Pattern FILE = Pattern.compile("^<!-- file: (\\S+) -->$");
    private static final Pattern CODE = Pattern.compile("^<!-- code: [a-z0-9-]+ -->$");
    private static final String EXAMPLES = "examples/";

    @Test
    void everyJavaXmlAndPropertiesBlockIsAnExamplesFileOrAnExcerptOfOne() {
        List<String> problems = new ArrayList<>();
        int files = 0;
        int excerpts = 0;
        for (Path doc : DocBlock.docs()) {
            for (DocBlock block : DocBlock.of(doc)) {
                Optional<String> whole = wholeFile(block);
                if (whole.isPresent() && !LANGUAGES.contains(block.language())) {
                    problems.add(block.where() + ": a <!-- file: --> marker above a ```" + block.language() + " block; it marks "
                            + LANGUAGES + " blocks only");
                }
                if (!LANGUAGES.contains(block.language()) || CODE.matcher(block.lineAbove()).matches()) {
                    continue;
                }
                if (whole.isPresent()) {
                    files++;
                    checkWhole(block, whole.get(), problems);
                } else if (block.excerptOf().isPresent()) {
                    excerpts++;
                    checkExcerpt(block, block.excerptOf().get(), problems);
                } else {
                    problems.add(block.where() + ": a ```" + block.language() + " block that is no file of " + EXAMPLES
                            + ": put <!-- file: examples/<path> --> above it (the whole file) or make its first line name the file"
                            + " it is an excerpt of (`// excerpt of examples/<path>`, `<!-- excerpt of … -->`, `# excerpt of …`)");
                }
            }
        }
        assertTrue(files > 0 && excerpts > 0, "no example files or excerpts shown under " + DocBlock.root());
        assertTrue(problems.isEmpty(), () -> problems.size() + " block(s) not shown from examples/:\n" + String.join("\n", problems));
    }

    /** The file a {@code <!-- file: … -->} line right above the block names. */
    static Optional<String> wholeFile(DocBlock block) {
        Matcher file = FILE.matcher(block.lineAbove());
        return file.matches() ? Optional.of(file.group(1)) : Optional.empty();
    }

    private static Path exampleFile(DocBlock block, String name, List<String> problems) {
        Path file = DocBlock.root().resolve(name).normalize();
        if (!name.startsWith(EXAMPLES) || !file.startsWith(DocBlock.root().resolve(EXAMPLES))) {
            problems.add(block.where() + ": '" + name + "' is not under " + EXAMPLES + ": the docs show the examples' files");
            return null;
        }
        if (!Files.isRegularFile(file)) {
            problems.add(block.where() + ": there is no file " + name);
            return null;
        }
        return file;
    }

    private static void checkWhole(DocBlock block, String name, List<String> problems) {
        Path file = exampleFile(block, name, problems);
        if (file == null) {
            return;
        }
        List<String> shown = block.text().lines().collect(Collectors.toList());
        List<String> actual = DocBlock.lines(file);
        for (int i = 0; i < Math.max(shown.size(), actual.size()); i++) {
            String a = i < shown.size() ? shown.get(i) : "(nothing)";
            String b = i < actual.size() ? actual.get(i) : "(nothing)";
            if (!a.equals(b)) {
                problems.add(DocBlock.where(block.doc(), block.bodyLine(i)) + ": the block differs from " + name + " at its line " + (i + 1)
                        + ": «" + a + "», the file has «" + b + "»; copy the file over");
                return;
            }
        }
    }

    private static void checkExcerpt(DocBlock block, String name, List<String> problems) {
        Path file = exampleFile(block, name, problems);
        if (file == null) {
            return;
        }
        List<String> shown = block.withoutExcerptLine().lines().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
        List<String> actual = DocBlock.lines(file).stream().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
        if (shown.isEmpty()) {
            problems.add(block.where() + ": an excerpt of " + name + " that shows nothing");
        } else if (indexOf(actual, shown) < 0) {
            int longest = 0;
            for (int n = shown.size(); n > 0 && longest == 0; n--) {
                if (indexOf(actual, shown.subList(0, n)) >= 0) {
                    longest = n;
                }
            }
            problems.add(block.where() + ": not literally in " + name + " (indentation aside); its lines agree up to: "
                    + (longest == 0 ? "(the first differs) " + shown.get(0) : shown.get(longest - 1)) + "; copy the file's lines over");
        }
    }

    private static int indexOf(List<String> lines, List<String> part) {
        for (int i = 0; i + part.size() <= lines.size(); i++) {
            if (lines.subList(i, i + part.size()).equals(part)) {
                return i;
            }
        }
        return -1;
    }
}
