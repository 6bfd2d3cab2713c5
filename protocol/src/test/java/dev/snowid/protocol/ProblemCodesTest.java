package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.snowid.internal.ProblemCode;
import dev.snowid.internal.WarningCode;
import org.junit.jupiter.api.Test;

/** The error codes and the warning codes are one set of names: each names one condition, with one troubleshooting entry. */
class ProblemCodesTest {

    @Test
    void noWarningIsNamedLikeAnErrorCode() {
        for (WarningCode warning : WarningCode.values()) {
            assertNull(ErrorCode.fromWire(warning.code()), warning + " is an error code: a log line about it carries the ErrorCode");
        }
    }

    @Test
    void everyErrorCodeTagsALineAsAWarningCodeDoes() {
        for (ErrorCode error : ErrorCode.values()) {
            assertEquals(error.code(), ProblemCode.codeOf(error.tag("the lease was lost")), error.name());
        }
    }
}
