package dev.snowid.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.lambda.api.SnowidApi;
import org.junit.jupiter.api.Test;

/**
 * The trailing-slash check reads each character at most once: counted, not timed. (A regex strip
 * of "/+$" retried the match from every slash of the run: quadratic, 10,000 slashes took 0.25 s.)
 */
class TrailingSlashStepsTest {

    @Test
    void tenThousandSlashesCostOneReadEach() {
        CountingPath path = new CountingPath("/ids" + "/".repeat(10_000));

        int kept = SnowidApi.withoutTrailingSlashes(path);

        assertEquals(4, kept);
        assertTrue(path.reads <= 10_001, "characters read: " + path.reads);
    }

    @Test
    void stepsGrowLinearlyWithTheRun() {
        CountingPath short1 = new CountingPath("/" + "/".repeat(1_000));
        CountingPath long1 = new CountingPath("/" + "/".repeat(100_000));
        assertEquals(0, SnowidApi.withoutTrailingSlashes(short1));
        assertEquals(0, SnowidApi.withoutTrailingSlashes(long1));
        assertEquals(100.0, (double) long1.reads / short1.reads, 0.5, "100 times the slashes, 100 times the reads");
    }

    @Test
    void aPathWithoutTrailingSlashesIsKeptWhole() {
        assertEquals(7, SnowidApi.withoutTrailingSlashes("/leases"));
        assertEquals(0, SnowidApi.withoutTrailingSlashes(""));
    }

    /** A path that counts how often a character of it is read. */
    private static final class CountingPath implements CharSequence {
        private final String text;
        long reads;

        CountingPath(String text) {
            this.text = text;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            throw new AssertionError("the check must not copy the path");
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
