package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.snowid.LeaseWindow;
import dev.snowid.Slot;
import dev.snowid.lease.Lease;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small rules both sides of the wire use: each written once here, and held to its words. */
class WireRulesTest {

    @Test
    void retryAfterIsWholeSecondsRoundedUpAndAtLeastOne() {
        assertEquals(1, RetryAfter.seconds(0));
        assertEquals(1, RetryAfter.seconds(1));
        assertEquals(1, RetryAfter.seconds(1_000));
        assertEquals(2, RetryAfter.seconds(1_001));
        assertEquals(60, RetryAfter.seconds(60_000));
        assertEquals(1, RetryAfter.seconds(-5), "a negative wait is no wait, still asked to wait a second");
        assertEquals(3_000, RetryAfter.millis("3", 1_000));
        assertEquals(3_000, RetryAfter.millis(" 3 ", 1_000));
        assertEquals(1_000, RetryAfter.millis("0", 7), "0 s is read as the least wait, 1 s");
        for (String absent : new String[] {null, "", "-1", "1.5", "+3", "Wed, 21 Oct 2015 07:28:00 GMT"}) {
            assertEquals(7, RetryAfter.millis(absent, 7), "'" + absent + "'");
        }
        assertEquals(Long.MAX_VALUE / 1000 * 1000, RetryAfter.millis("99999999999999999999", 7), "no overflow");
    }

    @Test
    void onlyAnAnswerThatSaysNothingOfTheRequestLeavesItOpen() {
        List<ErrorCode> open = List.of(ErrorCode.STORE_UNAVAILABLE, ErrorCode.UNAVAILABLE, ErrorCode.INTERNAL,
                ErrorCode.ACQUISITION_SUPERSEDED); // the last: the same acquisition won the race for the id, which answers again
        for (ErrorCode code : open) {
            assertTrue(LeaseRoute.leavesOpen(code.status(), answer(code.code())), "open: " + code);
        }
        assertTrue(LeaseRoute.leavesOpen(502, ErrorAnswer.read("<html>Bad Gateway</html>")), "a proxy's page");
        assertTrue(LeaseRoute.leavesOpen(504, ErrorAnswer.read("{\"message\":\"Endpoint request timed out\"}")),
                "API Gateway's integration timeout");
        assertTrue(LeaseRoute.leavesOpen(503, ErrorAnswer.read("")), "no body");
        for (ErrorCode settled : ErrorCode.values()) {
            if (!open.contains(settled)) {
                assertFalse(LeaseRoute.leavesOpen(settled.status(), answer(settled.code())), "settled: " + settled);
            }
        }
        assertFalse(LeaseRoute.leavesOpen(503, answer("a_refusal_of_a_newer_version")), "a code this version does not know");
        for (int status : new int[] {400, 401, 403, 404, 409, 429}) {
            assertFalse(LeaseRoute.leavesOpen(status, ErrorAnswer.read("")), "a 4xx settles the request, whatever its body: " + status);
        }
    }

    private static ErrorAnswer answer(String code) {
        return ErrorAnswer.read("{\"error\":\"" + code + "\",\"message\":\"what went wrong\"}");
    }

    @Test
    void echoedInputIsCutAtEightyCharacters() {
        assertEquals("x".repeat(80), EchoedInput.shortened("x".repeat(80)));
        assertEquals("x".repeat(80) + "…", EchoedInput.shortened("x".repeat(10_000)));
        String emoji = "\ud83d\ude00";
        assertEquals(emoji.repeat(80) + "…", EchoedInput.shortened(emoji.repeat(81)), "a pair counts once and is never cut in two");
    }

    @Test
    void echoedInputKeepsNonAsciiAsItIsAndEscapesWhatIsNotPrintable() {
        assertEquals("５ é 日本", EchoedInput.shortened("５ é 日本"));
        assertEquals("abc\\u202Edef", EchoedInput.shortened("abc\u202Edef"));
        assertEquals("a\\u2028b\\u0000c\\u200Bd\\uD800", EchoedInput.shortened("a\u2028b\u0000c\u200Bd\ud800"));
    }

    @Test
    void aHolderLabelIsOneToTwoHundredPrintableCharacters() {
        for (String fine : new String[] {"billing-app on host-7", "x", "x".repeat(200), "app 日本 ５ é", "\ud83d\ude00 pod"}) {
            assertEquals(null, HolderLabel.problem(fine), fine);
        }
        assertEquals("is empty", HolderLabel.problem(""));
        assertEquals("is 201 characters long", HolderLabel.problem("x".repeat(201)));
        for (String spoof : new String[] {"app\u202Eevil", "line\u2028two", "para\u2029", "tab\there", "nl\n", "zw\u200Bsp",
            "lri\u2066", "bom\ufeff", "lone\ud800", "rlm\u200f", "del\u007f", "c1\u0085"}) {
            String problem = HolderLabel.problem(spoof);
            assertTrue(problem != null && problem.startsWith("has the character U+"), spoof + ": " + problem);
            assertTrue(!problem.contains(spoof), problem);
        }
        assertEquals("has the character U+202E, which is not printable", HolderLabel.problem("a\u202Eb"));
    }

    @Test
    void aLabelMadeOfAnyTextPassesTheRule() {
        assertEquals("host?name??", HolderLabel.of("host\u202Ename\u2028\n"));
        assertEquals("?", HolderLabel.of(""));
        assertEquals(200, HolderLabel.of("y".repeat(500)).length());
        assertEquals("x".repeat(199), HolderLabel.of("x".repeat(199) + "\ud83d\ude00"), "a pair is never cut in two");
        for (String text : new String[] {"snowid-client 4242@host\u202E", "\u0000", "a".repeat(300) + "\u2029"}) {
            assertEquals(null, HolderLabel.problem(HolderLabel.of(text)), text);
        }
    }

    @Test
    void apiGatewaysOwnInternalErrorSaysTheFunctionDidNotAnswerAndWhereToLook() {
        ErrorAnswer gateway = ErrorAnswer.read("{\"message\":\"Internal Server Error\"}");
        assertTrue(gateway.text().startsWith("Internal Server Error (API Gateway's own answer"), gateway.text());
        assertTrue(gateway.text().contains("did not start") && gateway.text().contains("SNOWID_LEASE_PRINCIPALS")
                && gateway.text().contains("/snowid/<stack>/function"), gateway.text());
        assertEquals(null, gateway.code());
        // The function's own 500 names its code, and gets no such hint.
        ErrorAnswer own = ErrorAnswer.read("{\"error\":\"internal\",\"message\":\"Internal Server Error\"}");
        assertEquals("internal: Internal Server Error", own.text());
        assertEquals("Too Many Requests", ErrorAnswer.read("{\"message\":\"Too Many Requests\"}").text());
    }

    @Test
    void theLeaseAuthModeIsReadInAnyCase() {
        assertEquals(LeaseAuthMode.AWS_IAM, LeaseAuthMode.parse("AWS_IAM"));
        assertEquals(LeaseAuthMode.AWS_IAM, LeaseAuthMode.parse(" aws_iam "));
        assertEquals(LeaseAuthMode.BEARER, LeaseAuthMode.parse("Bearer"));
        IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> LeaseAuthMode.parse("iam"));
        assertEquals("'iam' is not a lease auth mode; allowed " + LeaseAuthMode.ALLOWED, error.getMessage());
        assertEquals("aws_iam", LeaseAuthMode.AWS_IAM.value());
    }

    @Test
    void theIdsAnswerIsReadAsDecimalStrings() {
        assertArrayEquals(new long[] {1, 9223372036854775807L}, IdsAnswer.read(" {\"ids\" : [ \"1\", \"9223372036854775807\" ] } "));
        assertArrayEquals(new long[0], IdsAnswer.read("{\"ids\":[]}"));
        for (String bad : new String[] {"{\"ids\":[1]}", "{\"ids\":[\"-1\"]}", "{\"ids\":[\"9223372036854775808\"]}",
            "{\"ids\":\"1\"}", "{\"id\":[\"1\"]}", "{\"ids\":[\"1\"],\"more\":1}", "{\"ids\":[{\"a\":1}]}", "[\"1\"]"}) {
            assertThrows(IllegalArgumentException.class, () -> IdsAnswer.read(bad), bad);
        }
    }

    @Test
    void aLeaseAnswerWhoseOwnerIsNoTokenIsRefused() {
        Lease lease = new Lease(Slot.of(1, 2), "0123456789abcdef0123456789abcdef", 3, LeaseWindow.of(10, 20));
        assertEquals(lease.owner(), LeaseMessage.readLease(LeaseMessage.lease(lease, 0)).owner());
        for (String owner : new String[] {"", "o1", "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcdef0"}) {
            String body = LeaseMessage.lease(lease, 0).replace(lease.owner(), owner);
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> LeaseMessage.readLease(body), owner);
            assertTrue(error.getMessage().contains("32 lower-case hex digits"), error.getMessage());
        }
    }
}
