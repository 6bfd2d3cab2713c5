package dev.snowid.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WarningCodeTest {

    @Test
    void everyCodeIsLowerCaseWordsAndReadBackFromTheLineItTags() {
        Set<String> codes = new HashSet<>();
        for (WarningCode warning : WarningCode.values()) {
            assertTrue(codes.add(warning.code()), warning + " twice");
            String line = warning.tag("something happened: [x] in brackets");
            assertTrue(line.startsWith("[" + warning.code() + "] something"), line);
            assertEquals(warning.code(), ProblemCode.codeOf(line));
        }
        assertEquals("unknown_setting", WarningCode.UNKNOWN_SETTING.code());
    }

    @Test
    void aMessageWithoutALeadingCodeHasNone() {
        assertNull(ProblemCode.codeOf("environment variable X is not a setting"));
        assertNull(ProblemCode.codeOf("[Not A Code] text"));
        assertNull(ProblemCode.codeOf("[unknown_setting]text"), "the code is followed by a space");
        assertNull(ProblemCode.codeOf("text [unknown_setting] later"));
        assertNull(ProblemCode.codeOf(null));
    }
}
