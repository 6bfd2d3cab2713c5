package dev.snowid.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The 401's challenge carries the refusal's message as RFC 6750 allows, and reads back as the client needs it. */
class BearerChallengeTest {

    @Test
    void aMessageTravelsInTheChallengeAsPrintableAsciiWithoutQuotesOrBackslashes() {
        String header = BearerChallenge.of("the \"Authorization\" header is not 'Bearer <secret>' \\ — é\n");
        assertTrue(header.startsWith("Bearer realm=\"snowid-leases\", error=\"invalid_token\", error_description=\""), header);
        assertTrue(header.chars().allMatch(c -> c >= 0x20 && c <= 0x7e), header);
        assertEquals("the 'Authorization' header is not 'Bearer <secret>' / ? ??", BearerChallenge.description(header));
    }

    @Test
    void aChallengeWithoutADescriptionGivesNone() {
        assertNull(BearerChallenge.description(null));
        assertNull(BearerChallenge.description("Bearer realm=\"snowid-leases\""));
        assertNull(BearerChallenge.description("Bearer error_description=\"unterminated"));
    }

    @Test
    void anEmptyRefusalBodyIsReadFromTheChallengeUnderTheOne401Code() {
        ErrorAnswer answer = ErrorAnswer.read("", BearerChallenge.of("the bearer secret is wrong"));
        assertEquals(ErrorCode.UNAUTHORIZED, answer.code());
        assertEquals("unauthorized: the bearer secret is wrong", answer.text());
        assertEquals("(no body)", ErrorAnswer.read("", null).text());
        assertEquals("forbidden: not listed", ErrorAnswer.read("{\"error\":\"forbidden\",\"message\":\"not listed\"}",
                BearerChallenge.of("ignored: the body wins")).text());
    }
}
