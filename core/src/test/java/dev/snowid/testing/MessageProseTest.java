package dev.snowid.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import org.junit.jupiter.api.Test;

class MessageProseTest {

    @Test
    void findsAColonBetweenANameAndItsVerb() {
        assertEquals(1, MessageProse.strayPunctuation("SNOWID_LEASE_SECRET: is too weak for a lease API bearer secret").size());
        assertEquals(1, MessageProse.strayPunctuation("SNOWID_LEASE_PRINCIPALS: must be set").size());
    }

    @Test
    void findsASpaceBeforePunctuationAndDoubledMarks() {
        assertEquals(1, MessageProse.strayPunctuation("the lease , then the window").size());
        assertTrue(!MessageProse.strayPunctuation("snowid.node: : invalid").isEmpty());
        assertEquals(1, MessageProse.strayPunctuation("allowed 0 to 31,, got 32").size());
    }

    @Test
    void acceptsWhatMessagesSay() {
        for (String fine : new String[] {
            "SNOWID_LEASE_SECRET is too weak for a lease API bearer secret: 10 characters, about 47 bits",
            "snowid.node='7:32' is invalid: machine 32 is out of range: allowed 0 to 31",
            "SNOWID_TABLE: 'ab' is not allowed: 3 to 255 characters",
            "list the IAM roles (e.g. arn:aws:iam::123456789012:role/orders-service, comma-separated)",
            "leasing from http://localhost:8080 with a bearer secret; renewing every ~29798 ms",
        }) {
            assertEquals(Collections.emptyList(), MessageProse.strayPunctuation(fine), fine);
        }
        assertTrue(MessageProse.strayPunctuation("").isEmpty());
    }
}
