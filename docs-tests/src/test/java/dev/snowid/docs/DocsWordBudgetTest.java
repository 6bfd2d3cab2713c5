package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * docs/ is a manual a newcomer can read, not an archive: at most 18,000 words over all its pages,
 * counted as {@code wc -w docs/*.md} counts them. A page that grows makes room by saying a fact
 * once, where it belongs, and linking to it.
 */
class DocsWordBudgetTest {

    static final int MAX_WORDS = 18_000;

    @Test
    void docsStayWithinTheirWordBudget() {
        Map<String, Integer> pages = new TreeMap<>();
        for (Path doc : DocBlock.docs()) {
            if (doc.getParent().getFileName().toString().equals("docs")) {
                pages.put(doc.getFileName().toString(), words(doc));
            }
        }
        int total = pages.values().stream().mapToInt(Integer::intValue).sum();
        assertTrue(total > 1_000, "docs/ has only " + total + " words: are the pages there? " + pages);
        StringBuilder table = new StringBuilder();
        pages.forEach((page, words) -> table.append(String.format("%n%7d docs/%s", words, page)));
        assertTrue(total <= MAX_WORDS, "docs/ has " + total + " words (wc -w docs/*.md); at most " + MAX_WORDS
                + ": say each fact once, on its page, and link to it" + table + String.format("%n%7d total", total));
    }

    /** Runs of characters that are not white space, as {@code wc -w} counts them. */
    static int words(Path doc) {
        String text;
        try {
            text = Files.readString(doc, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.isEmpty() ? 0 : text.split("\\s+").length;
    }
}
