package dev.snowid.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** One fenced block of README.md or docs/*.md: where it is, its language tag and its text. */
record DocBlock(Path doc, int line, String language, String text) {

    /** The repository root, set by the build. */
    static Path root() {
        String root = System.getProperty("snowid.test.repositoryRoot");
        if (root == null || root.isBlank()) {
            throw new IllegalStateException("-Dsnowid.test.repositoryRoot is not set (the Maven build sets it)");
        }
        return Paths.get(root).toAbsolutePath().normalize();
    }

    /** README.md and every docs/*.md, in a stable order. */
    static List<Path> docs() {
        Path root = root();
        List<Path> docs = new ArrayList<>();
        docs.add(root.resolve("README.md"));
        try (Stream<Path> files = Files.list(root.resolve("docs"))) {
            docs.addAll(files.filter(f -> f.toString().endsWith(".md")).sorted().collect(Collectors.toList()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    static List<DocBlock> all(String language) {
        return docs().stream().flatMap(doc -> of(doc).stream()).filter(b -> b.language.equals(language))
                .collect(Collectors.toList());
    }

    static List<DocBlock> of(Path doc) {
        List<String> lines = lines(doc);
        List<DocBlock> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String open = lines.get(i).strip();
            if (!open.startsWith("```")) {
                continue;
            }
            String language = open.substring(3).strip();
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).strip().equals("```")) {
                text.append(lines.get(j++)).append('\n');
            }
            if (j == lines.size()) {
                throw new AssertionError(where(doc, i + 1) + ": the block opened here is never closed");
            }
            blocks.add(new DocBlock(doc, i + 1, language, text.toString()));
            i = j;
        }
        return blocks;
    }

    static List<String> lines(Path doc) {
        try {
            return Files.readAllLines(doc, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "docs/client.md:42", for messages that name the doc and line. */
    static String where(Path doc, int line) {
        return root().relativize(doc) + ":" + line;
    }

    String where() {
        return where(doc, line);
    }

    /** The doc's text lines of this block's body, numbered as in the doc. */
    int bodyLine(int index) {
        return line + 1 + index;
    }

    /** The nearest line above the block's opening fence that is not blank, stripped; "" when there is none. */
    String lineAbove() {
        List<String> lines = lines(doc);
        for (int i = line - 2; i >= 0; i--) {
            if (!lines.get(i).isBlank()) {
                return lines.get(i).strip();
            }
        }
        return "";
    }

    /**
     * A first line that marks the block as an excerpt of a file: {@code // excerpt of <path>} (Java),
     * {@code <!-- excerpt of <path> … -->} (XML), {@code # excerpt of <path>} (properties); the path
     * is from the repository root.
     */
    static final Pattern EXCERPT = Pattern.compile("^(?://|#|<!--) excerpt of (\\S+)(?:\\s.*)?$");

    /** The file this block is marked an excerpt of, by its first line. */
    Optional<String> excerptOf() {
        Matcher excerpt = EXCERPT.matcher(text.lines().findFirst().orElse("").strip());
        return excerpt.matches() ? Optional.of(excerpt.group(1)) : Optional.empty();
    }

    /** The block's lines after its excerpt line. */
    String withoutExcerptLine() {
        return excerptOf().isPresent() ? text.substring(text.indexOf('\n') + 1) : text;
    }
}
