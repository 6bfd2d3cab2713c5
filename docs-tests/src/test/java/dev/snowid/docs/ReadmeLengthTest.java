package dev.snowid.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** The README is the way in, not the manual: under 800 words as {@code wc -w} counts them; the rest goes to docs/. */
class ReadmeLengthTest {

    static final int MAX_WORDS = 799;

    @Test
    void theReadmeStaysUnder800Words() throws IOException {
        String readme = Files.readString(DocBlock.root().resolve("README.md"), StandardCharsets.UTF_8).strip();
        int words = readme.isEmpty() ? 0 : readme.split("\\s+").length;
        assertTrue(words > 100 && words <= MAX_WORDS, "README.md has " + words + " words (wc -w); at most " + MAX_WORDS
                + ": move text to the page of docs/ where it belongs");
    }
}
