package dev.snowid.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
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
}
