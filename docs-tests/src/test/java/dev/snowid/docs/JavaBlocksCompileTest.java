package dev.snowid.docs;

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
 * Every ```java block of README.md and docs/ that is a complete compilation unit (imports and
 * all) compiles here, with javac against the built modules and their real dependencies; the
 * blocks of one doc are compiled together, so one block may use a type another defines.
 * Excerpts ({@code // excerpt of <file>}) are held to their file by {@link ExampleFilesShownTest}.
 * The whole files of the examples that need what these tests do not carry
 * ({@link #BUILT_BY_THEIR_EXAMPLE}: Spring Boot) are compiled by their example's own build,
 * which CI runs ({@code examples/run-all.sh}).
 */
class JavaBlocksCompileTest {

    /** Examples whose files only their own build compiles (it brings Spring Boot, which these tests do not). */
    static final List<String> BUILT_BY_THEIR_EXAMPLE = List.of("examples/spring-boot/");

    private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
    private static final Pattern PUBLIC_TYPE = Pattern.compile(
            "(?m)^public\\s+(?:(?:final|abstract|sealed|static)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");
    private static final Pattern ANY_TYPE = Pattern.compile(
            "(?m)^(?:(?:final|abstract)\\s+)*(?:class|interface|record|enum|@interface)\\s+(\\w+)");

    @Test
    void everyCompleteJavaBlockCompiles() {
        List<String> problems = new ArrayList<>();
        int compiled = 0;
        for (Path doc : DocBlock.docs()) {
            List<DocBlock> units = completeUnits(doc);
            if (!units.isEmpty()) {
                compiled += units.size();
                compile(units, text -> text, problems);
            }
        }
        assertTrue(compiled > 0, "no complete ```java blocks found under " + DocBlock.root());
        assertTrue(problems.isEmpty(), () -> problems.size() + " doc Java block problem(s):\n" + String.join("\n", problems));
    }

    /** The complete units of one doc: neither excerpts nor files that only their example's build compiles. */
    static List<DocBlock> completeUnits(Path doc) {
        return DocBlock.of(doc).stream().filter(b -> b.language().equals("java"))
                .filter(b -> b.excerptOf().isEmpty())
                .filter(b -> ExampleFilesShownTest.wholeFile(b).map(f -> BUILT_BY_THEIR_EXAMPLE.stream().noneMatch(f::startsWith)).orElse(true))
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
