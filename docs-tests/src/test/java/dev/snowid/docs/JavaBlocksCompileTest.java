package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every ```java block of README.md and docs/ is either a complete compilation unit (imports and
 * all), compiled here with javac against the built modules and their real dependencies, or an
 * excerpt of a compiled source file, marked by a first line {@code // excerpt of <path from the
 * repository root>}, whose lines the named file contains in that order (indentation aside).
 * The blocks of one doc are compiled together, so one block may use a type another defines.
 */
class JavaBlocksCompileTest {

    static final Pattern EXCERPT = Pattern.compile("^// excerpt of (\\S+)\\s*$");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+(?:(?:final|abstract|sealed|static)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");
    private static final Pattern ANY_TYPE = Pattern.compile(
            "(?m)^(?:(?:final|abstract)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");

    @Test
    void everyJavaBlockCompilesOrIsAnExcerptOfACompiledFile() throws IOException {
        List<DocBlock> blocks = DocBlock.all("java");
        assertFalse(blocks.isEmpty(), "no ```java blocks found under " + DocBlock.root());
        List<String> problems = new ArrayList<>();
        Map<Path, List<DocBlock>> units = new LinkedHashMap<>();
        for (DocBlock block : blocks) {
            String first = block.text().lines().findFirst().orElse("").strip();
            Matcher excerpt = EXCERPT.matcher(first);
            if (excerpt.matches()) {
                checkExcerpt(block, excerpt.group(1), problems);
            } else {
                units.computeIfAbsent(block.doc(), d -> new ArrayList<>()).add(block);
            }
        }
        units.forEach((doc, docBlocks) -> compile(docBlocks, text -> text, problems));
        assertTrue(problems.isEmpty(), () -> problems.size() + " doc Java block problem(s):\n" + String.join("\n", problems));
    }

    private static void checkExcerpt(DocBlock block, String file, List<String> problems) {
        Path source = DocBlock.root().resolve(file).normalize();
        if (!Files.isRegularFile(source) || !source.toString().endsWith(".java") || !source.toString().contains("/src/")) {
            problems.add(block.where() + ": `// excerpt of " + file + "` names no Java source file of a module");
            return;
        }
        List<String> shown = block.text().lines().skip(1).map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
        List<String> actual = DocBlock.lines(source).stream().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.toList());
        if (shown.isEmpty()) {
            problems.add(block.where() + ": an excerpt of " + file + " that shows nothing");
        } else if (indexOf(actual, shown) < 0) {
            int longest = 0;
            for (int n = shown.size(); n > 0 && longest == 0; n--) {
                if (indexOf(actual, shown.subList(0, n)) >= 0) {
                    longest = n;
                }
            }
            problems.add(block.where() + ": not literally in " + file + " (indentation aside); its lines agree up to: "
                    + (longest == 0 ? "(the first differs) " + shown.get(0) : shown.get(longest - 1))
                    + " — copy the source's lines over");
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

    /** The complete units (not excerpts) of one doc. */
    static List<DocBlock> completeUnits(Path doc) {
        return DocBlock.of(doc).stream().filter(b -> b.language().equals("java"))
                .filter(b -> !EXCERPT.matcher(b.text().lines().findFirst().orElse("").strip()).matches())
                .collect(Collectors.toList());
    }

    /** The fully qualified names of the units' classes with a {@code main} method. */
    static List<String> mainClasses(List<DocBlock> blocks) {
        List<String> mains = new ArrayList<>();
        for (DocBlock block : blocks) {
            Matcher type = PUBLIC_TYPE.matcher(block.text());
            if (block.text().contains("public static void main(String[] args)") && type.find()) {
                Matcher pkg = PACKAGE.matcher(block.text());
                mains.add((pkg.find() ? pkg.group(1) + "." : "") + type.group(1));
            }
        }
        return mains;
    }

    /**
     * Compiles one doc's complete units together, each block's text passed through {@code edit};
     * each diagnostic is reported at its doc line. Returns the classes' folder.
     */
    static Path compile(List<DocBlock> blocks, java.util.function.UnaryOperator<String> edit, List<String> problems) {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path sources;
        Path classes;
        try {
            sources = Files.createTempDirectory("snowid-doc-sources");
            classes = Files.createTempDirectory("snowid-doc-classes");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<Path, DocBlock> files = new LinkedHashMap<>();
        for (int i = 0; i < blocks.size(); i++) {
            DocBlock block = blocks.get(i);
            Matcher type = PUBLIC_TYPE.matcher(block.text());
            Matcher anyType = ANY_TYPE.matcher(block.text());
            String name = type.find() ? type.group(1) : anyType.find() ? anyType.group(1) : null;
            if (name == null || !block.text().contains("import ") && !PACKAGE.matcher(block.text()).find()) {
                problems.add(block.where() + ": not a complete compilation unit (no " + (name == null ? "top-level type" : "imports")
                        + "): give it its package or imports and a class, or mark its first line `// excerpt of <source file>`");
                continue;
            }
            Path file = sources.resolve("block" + i).resolve(name + ".java");
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, edit.apply(block.text()), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            files.put(file, block);
        }
        if (files.isEmpty()) {
            return classes;
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager manager = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            Iterable<? extends JavaFileObject> units = manager.getJavaFileObjectsFromPaths(files.keySet());
            List<String> options = List.of("-classpath", System.getProperty("java.class.path"), "-d", classes.toString(),
                    "-proc:none", "--release", "17", "-encoding", "UTF-8");
            javac.getTask(null, manager, diagnostics, options, null, units).call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            DocBlock block = d.getSource() == null ? null : files.get(Path.of(d.getSource().toUri()));
            String at = block == null ? "(javac)" : DocBlock.where(block.doc(), block.bodyLine((int) d.getLineNumber() - 1));
            problems.add(at + ": does not compile: " + d.getMessage(Locale.ROOT).lines().findFirst().orElse(""));
        }
        return classes;
    }
}
