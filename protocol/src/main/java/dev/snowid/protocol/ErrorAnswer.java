package dev.snowid.protocol;

import java.util.Map;

/**
 * An error answer of the snowid API, {@code {"error":"<code>","message":"<what was wrong and what
 * is allowed>"}}; or, read by a client, whatever came back instead (a proxy's page, nothing).
 */
public final class ErrorAnswer {

    private static final int SHOWN_BODY_CHARS = 300;
    /**
     * API Gateway's own body when the function (or the authorizer in front) did not answer: it
     * failed, was throttled, timed out, or did not start at all, as a function does when it refuses
     * a setting at init (then every request gets it).
     */
    static final String GATEWAY_INTERNAL_ERROR = "Internal Server Error";
    static final String FUNCTION_DID_NOT_ANSWER = " (API Gateway's own answer, not the function's: the function, or the lease"
            + " routes' authorizer, failed, was throttled or did not start; one that refuses a setting at init, such as an entry"
            + " of SNOWID_LEASE_PRINCIPALS, fails every request so. Its log group says why, e.g. aws logs tail"
            + " /snowid/<stack>/function)";

    private final ErrorCode code;
    private final boolean namesCode;
    private final String text;

    private ErrorAnswer(ErrorCode code, boolean namesCode, String text) {
        this.code = code;
        this.namesCode = namesCode;
        this.text = text;
    }

    /** Reads an answer's body; never fails: an unreadable body is kept (shortened) as the text. */
    public static ErrorAnswer read(String body) {
        Object error = null;
        Object message = null;
        try {
            Map<String, Object> json = WireJson.parse(body);
            error = json.get(LeaseFields.ERROR);
            message = json.get(LeaseFields.MESSAGE);
        } catch (IllegalArgumentException notOurs) {
            // a proxy's or load balancer's page: shown as it is
        }
        ErrorCode code = error instanceof String ? ErrorCode.fromWire((String) error) : null;
        String text;
        if (message instanceof String) {
            text = error instanceof String ? error + ": " + message
                    : message.equals(GATEWAY_INTERNAL_ERROR) ? message + FUNCTION_DID_NOT_ANSWER : (String) message;
        } else if (body.isEmpty()) {
            text = "(no body)";
        } else {
            text = body.length() > SHOWN_BODY_CHARS ? body.substring(0, SHOWN_BODY_CHARS) + "…" : body;
        }
        return new ErrorAnswer(code, error instanceof String, text);
    }

    /**
     * A refusal's answer: its body, or, when a 401's body could not be read (a streamed request's,
     * see {@link BearerChallenge}), the message its challenge carries, under the one 401 code.
     */
    public static ErrorAnswer read(String body, String challenge) {
        String description = body.isEmpty() ? BearerChallenge.description(challenge) : null;
        return description == null ? read(body)
                : new ErrorAnswer(ErrorCode.UNAUTHORIZED, true, ErrorCode.UNAUTHORIZED.code() + ": " + description);
    }

    /** The code, if the body named one this version knows; else null. */
    public ErrorCode code() {
        return code;
    }

    /** Whether the body named a code at all, known to this version or not: an answer of the API's, not a proxy's page. */
    public boolean namesCode() {
        return namesCode;
    }

    /** What to show a person: {@code code: message}, or the body as it came. */
    public String text() {
        return text;
    }

    @Override
    public String toString() {
        return text;
    }
}
